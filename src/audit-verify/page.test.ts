// @vitest-environment jsdom
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { logKey, makeBundle, makeLog } from './testing';

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
      lines: ['Không xác minh được: chưa chọn tệp bundle.'],
    });
  });

  it('verifies a bundle with its own key, with the warning', async () => {
    choose('bundle', 'bundle.json', JSON.stringify(makeBundle(log)));
    const { ok, lines } = await verify();
    expect(ok).toBe(true);
    expect(lines).toEqual([
      `Đã xác minh 8 sự kiện, tính đến checkpoint #${size}`,
      'Cảnh báo: khóa dùng để kiểm tra là khóa của chính bundle: kết quả này chỉ cho thấy bundle khớp với chính nó, không chứng minh nó là của log; hãy lấy public key của log từ nguồn khác và kiểm tra lại bằng khóa đó',
    ]);
  });

  it('verifies with a key file, and refuses a changed bundle naming what changed', async () => {
    choose('key', 'log.pub', `${log.verifierKey}\n`);
    expect(await verify()).toEqual({
      ok: true,
      lines: [`Đã xác minh 8 sự kiện, tính đến checkpoint #${size}`],
    });
    const bundle = makeBundle(log);
    bundle.streams[1]!.events[0]!.type = 'Forged';
    choose('bundle', 'bundle.json', JSON.stringify(bundle));
    const { ok, lines } = await verify();
    expect(ok).toBe(false);
    expect(lines).toEqual([
      `Không xác minh được: stream execution-b, vị trí 1 (leaf ${bundle.streams[1]!.events[0]!.leafIndex}): không khớp với log tại checkpoint #${size} (đã bị thay đổi)`,
    ]);
  });

  it('refuses in Vietnamese, naming the stream, the position and the leaf', async () => {
    const cut = makeBundle(log);
    const last = cut.streams[0]!.events.pop()!;
    choose('bundle', 'bundle.json', JSON.stringify(cut));
    expect(await verify()).toEqual({
      ok: false,
      lines: [
        `Không xác minh được: stream execution-a, vị trí ${last.position} (leaf ${last.leafIndex}): sự kiện mà log lưu ở vị trí này bị thiếu hoặc đã bị thay thế`,
      ],
    });
    const malformed = makeBundle(log) as unknown as { streams: { events: { leafIndex: unknown }[] }[] };
    malformed.streams[0]!.events[2]!.leafIndex = '12';
    choose('bundle', 'bundle.json', JSON.stringify(malformed));
    expect((await verify()).lines).toEqual([
      'Không xác minh được: bundle không đúng cấu trúc: trường streams.0.events.2.leafIndex cần số, nhưng là chuỗi',
    ]);
    choose('bundle', 'bundle.json', JSON.stringify(makeBundle(log)));
    choose('key', 'other.pub', `${logKey(2).verifierKey}\n`);
    expect((await verify()).lines).toEqual([
      expect.stringMatching(
        /^Không xác minh được: checkpoint của bundle không xác minh được bằng khóa \S+: không có chữ ký nào của khóa này$/,
      ),
    ]);
    (document.getElementById('key-text') as HTMLInputElement).value = 'workbench/audit-log+1a2b3c4d';
    expect((await verify()).lines).toEqual([
      'Không xác minh được: khóa được đưa vào không phải verifier key: một verifier key có dạng <tên>+<key ID>+<khóa>',
    ]);
    (document.getElementById('key-text') as HTMLInputElement).value = '';
  });
});

describe('the verifier in a browser', () => {
  it('imports no Node module: only its own folder, the audit library and zod/mini', () => {
    const dir = import.meta.dirname;
    const imports = ['verify-bundle.ts', 'messages.ts', 'page.ts', 'jitless.ts'].flatMap((name) =>
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
