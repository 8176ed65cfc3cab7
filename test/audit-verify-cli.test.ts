import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkpointOf, logKey, makeBundle, makeLog } from '../src/audit-verify/testing';
import { built, ROOT } from './support/audit-verify-build';

const BUILT = path.join(ROOT, 'dist', 'audit-verify.js');

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

  it('names a bundle nested too deep to quote, and a stream ID that would rewrite the terminal, in one plain line', async () => {
    const deep = file('deep.json', `{"format":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`);
    const nested = await run([deep]);
    expect(nested).toEqual({
      code: 1,
      stdout: "not verified: the bundle's format is {…}, not workbench-audit-bundle/v1\n",
      stderr: '',
    });
    const spoofing = makeBundle(log);
    spoofing.streams[0]!.streamId = `x\r\u001b[2Kverified 8 events up to checkpoint ${size}\u001b[8m`;
    const spoofed = await run([file('spoofed.json', JSON.stringify(spoofing)), '--key', 'log.pub']);
    expect(spoofed.code).toBe(1);
    expect(spoofed.stdout).toMatch(/^not verified: stream x\\u000d\\u001b\[2Kverified 8 events .*\n$/);
    const controls = [...spoofed.stdout.slice(0, -1)].filter((c) => c.charCodeAt(0) < 0x20);
    expect(controls).toEqual([]);
  });
});
