import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkpointOf, logKey, makeBundle, makeLog } from '../src/audit-verify/testing';

const ROOT = path.resolve(import.meta.dirname, '..');
const BUILT = path.join(ROOT, 'dist', 'audit-verify.js');
const PAGE = path.join(ROOT, 'dist', 'audit-verify.html');

/** The files the verifier and its page are built from. */
const SOURCES = ['src/audit-verify', 'src/domain/audit', 'scripts'].flatMap((dir) =>
  readdirSync(path.join(ROOT, dir)).map((name) => path.join(ROOT, dir, name)),
);

/** Builds the verifier and its page (npm run build:audit-verify) unless both are built from the sources as they are. */
function built() {
  const newest = Math.max(...SOURCES.map((file) => statSync(file).mtimeMs));
  if (![BUILT, PAGE].every((file) => existsSync(file) && statSync(file).mtimeMs >= newest)) {
    execFileSync('npm', ['run', '-s', 'build:audit-verify'], { cwd: ROOT, stdio: 'inherit' });
  }
}

/**
 * The built verifier (dist/audit-verify.js) run as an auditor runs it: with plain node, from a folder of its
 * own far from the project (no node_modules, no package.json), on bundle files.
 */
describe('node audit-verify.js, away from the project', () => {
  let dir: string;
  const log = makeLog();
  const size = log.leaves.length;

  const run = (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      execFile(process.execPath, ['audit-verify.js', ...args], { cwd: dir }, (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      });
    });
  const file = (name: string, text: string) => {
    writeFileSync(path.join(dir, name), text);
    return name;
  };

  beforeAll(() => {
    built();
    dir = mkdtempSync(path.join(tmpdir(), 'audit-verify-'));
    copyFileSync(BUILT, path.join(dir, 'audit-verify.js'));
    const bundle = makeBundle(log, undefined, [9]);
    file('bundle.json', JSON.stringify(bundle, null, 2));
    const tampered = structuredClone(bundle);
    tampered.streams[0]!.events[1]!.content = '{"text": "changed"}';
    file('tampered.json', JSON.stringify(tampered));
    file('log.pub', `${log.verifierKey}\n`);
    file('other.pub', `${logKey(2).verifierKey}\n`);
    file('earlier.note', checkpointOf(log, 9));
  }, 120_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('verifies a bundle with the key given: exit 0, the message on stdout', async () => {
    const { code, stdout, stderr } = await run(['bundle.json', '--key', 'log.pub']);
    expect({ code, stdout, stderr }).toEqual({
      code: 0,
      stdout: `verified 8 events up to checkpoint ${size}\n`,
      stderr: '',
    });
  });

  it("warns on stderr when the key is the bundle's own", async () => {
    const { code, stdout, stderr } = await run(['bundle.json']);
    expect(code).toBe(0);
    expect(stdout).toBe(`verified 8 events up to checkpoint ${size}\n`);
    expect(stderr).toMatch(/^warning: the key is the bundle's own/);
  });

  it('verifies with an earlier checkpoint the log extends', async () => {
    const { code, stdout } = await run(['bundle.json', '--key', 'log.pub', '--checkpoint', 'earlier.note']);
    expect(code).toBe(0);
    expect(stdout).toBe(`verified 8 events up to checkpoint ${size}\n`);
  });

  it('refuses a tampered bundle, and another key: exit 1, naming what', async () => {
    const tampered = await run(['tampered.json', '--key', 'log.pub']);
    expect(tampered.code).toBe(1);
    expect(tampered.stdout).toMatch(
      new RegExp(
        `^not verified: stream execution-a position 2 \\(leaf \\d+\\): does not match the log at checkpoint ${size} \\(changed\\)\\n$`,
      ),
    );
    const otherKey = await run(['bundle.json', '--key', 'other.pub']);
    expect(otherKey.code).toBe(1);
    expect(otherKey.stdout).toMatch(/^not verified: the bundle's checkpoint does not verify with the key/);
  });

  it('exits 1 with the usage on bad arguments and unreadable files', async () => {
    for (const args of [
      [],
      ['bundle.json', '--nope'],
      ['a.json', 'b.json'],
      ['missing.json'],
      ['bundle.json', '--key', 'missing.pub'],
    ]) {
      const { code, stdout, stderr } = await run(args);
      expect(code, args.join(' ')).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toMatch(/^audit-verify: .*\n\nUsage: node audit-verify\.js <bundle\.json>/);
    }
    expect((await run(['missing.json'])).stderr).toMatch(/cannot read the bundle file missing\.json: ENOENT/);
  });
});

/** The built page (dist/audit-verify.html), its inline script run as a browser runs it, without a network. */
describe('dist/audit-verify.html', () => {
  const log = makeLog();
  let html: string;

  beforeAll(() => {
    built();
    html = readFileSync(PAGE, 'utf8');
  }, 120_000);

  it('is one file: its script and style inline, allowed by its policy by their hashes, nothing else', () => {
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1];
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1];
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
    const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    expect(policy?.split('; ')).toEqual([
      "default-src 'none'",
      `script-src ${sha256(script!)}`,
      `style-src ${sha256(style!)}`,
      'img-src data:',
      "base-uri 'none'",
      "form-action 'none'",
    ]);
    expect(html).not.toMatch(/<script [^>]*src=|<link /);
    expect(html).toContain('<title>Kiểm tra bản ghi kiểm toán (audit bundle)</title>');
  });

  it('verifies a bundle, and refuses a changed one', async () => {
    const dom = new JSDOM(html, { runScripts: 'dangerously' });
    const { document } = dom.window;
    const choose = (id: string, text: string) => {
      const input = document.getElementById(id) as HTMLInputElement;
      Object.defineProperty(input, 'files', { configurable: true, value: [new dom.window.File([text], id)] });
      input.dispatchEvent(new dom.window.Event('change'));
    };
    const verify = async () => {
      const result = document.getElementById('result')!;
      result.hidden = true;
      (document.getElementById('verify') as HTMLButtonElement).click();
      await expect.poll(() => result.hidden).toBe(false);
      return [...result.querySelectorAll('p')].map((p) => p.textContent);
    };
    const bundle = makeBundle(log);
    choose('bundle', JSON.stringify(bundle));
    choose('key', log.verifierKey);
    expect(await verify()).toEqual([`Đã xác minh: verified 8 events up to checkpoint ${log.leaves.length}`]);
    bundle.streams[0]!.events.pop();
    choose('bundle', JSON.stringify(bundle));
    expect(await verify()).toEqual([
      expect.stringMatching(
        /^Không xác minh được: stream execution-a position 4 \(leaf \d+\): the event the log holds is missing or was replaced$/,
      ),
    ]);
    dom.window.close();
  });
});
