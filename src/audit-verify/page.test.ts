// @vitest-environment jsdom
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeBundle, makeLog } from './testing';

const log = makeLog();
const size = log.leaves.length;

/** Picks `text` as the file of the input `id`, as a user choosing it would. */
function choose(id: string, name: string, text: string) {
  const input = document.getElementById(id) as HTMLInputElement;
  const file = new File([text], name);
  Object.defineProperty(input, 'files', { configurable: true, value: [file] });
  input.dispatchEvent(new Event('change'));
}

async function verify(): Promise<{ ok: boolean; lines: string[] }> {
  const result = document.getElementById('result')!;
  result.hidden = true;
  (document.getElementById('verify') as HTMLButtonElement).click();
  await expect.poll(() => result.hidden).toBe(false);
  return {
    ok: result.className === 'ok',
    lines: [...result.querySelectorAll('p')].map((p) => p.textContent!),
  };
}

describe('the verifier page (its markup with page.ts)', () => {
  beforeAll(async () => {
    const html = readFileSync(path.join(import.meta.dirname, 'page.html'), 'utf8');
    document.documentElement.innerHTML = html.replace(/<script>[\s\S]*?<\/script>/, '');
    await import('./page');
  });

  it('asks for a bundle first', async () => {
    expect(await verify()).toEqual({
      ok: false,
      lines: ['Không xác minh được: chưa chọn tệp bundle (no bundle file chosen).'],
    });
  });

  it('verifies a bundle with its own key, with the warning', async () => {
    choose('bundle', 'bundle.json', JSON.stringify(makeBundle(log)));
    const { ok, lines } = await verify();
    expect(ok).toBe(true);
    expect(lines[0]).toBe(`Đã xác minh: verified 8 events up to checkpoint ${size}`);
    expect(lines[1]).toMatch(/^Cảnh báo \(warning\): the key is the bundle's own/);
  });

  it('verifies with a key file, and refuses a changed bundle naming what changed', async () => {
    choose('key', 'log.pub', `${log.verifierKey}\n`);
    expect(await verify()).toEqual({
      ok: true,
      lines: [`Đã xác minh: verified 8 events up to checkpoint ${size}`],
    });
    const bundle = makeBundle(log);
    bundle.streams[1]!.events[0]!.type = 'Forged';
    choose('bundle', 'bundle.json', JSON.stringify(bundle));
    const { ok, lines } = await verify();
    expect(ok).toBe(false);
    expect(lines).toEqual([
      `Không xác minh được: stream execution-b position 1 (leaf ${bundle.streams[1]!.events[0]!.leafIndex}): does not match the log at checkpoint ${size} (changed)`,
    ]);
  });
});

describe('the verifier in a browser', () => {
  it('imports no Node module: only its own folder, the audit library and zod/mini', () => {
    const dir = import.meta.dirname;
    const imports = ['verify-bundle.ts', 'page.ts', 'jitless.ts'].flatMap((name) =>
      [
        ...readFileSync(path.join(dir, name), 'utf8').matchAll(
          /^(?:import|export)\s(?:[^'";]*?\sfrom\s)?'([^']+)'/gm,
        ),
      ].map((m) => m[1]!),
    );
    expect(
      imports.filter((s) => !/^(\.\/[\w-]+|\.\.\/domain\/audit\/[\w-]+|zod\/(mini|locales))$/.test(s)),
    ).toEqual([]);
    expect(readdirSync(dir)).toContain('page.html');
  });
});
