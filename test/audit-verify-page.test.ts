// @vitest-environment jsdom
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeBundle, makeLog } from '../src/audit-verify/testing';
import { built, ROOT } from './support/audit-verify-build';

/** The built page (dist/audit-verify.html), its inline script run as a browser runs it, without a network. */
describe('dist/audit-verify.html', () => {
  const log = makeLog();
  let html: string;

  beforeAll(() => {
    built();
    html = readFileSync(path.join(ROOT, 'dist', 'audit-verify.html'), 'utf8');
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
    // The page as a browser loads it, its inline script run (jsdom does not enforce the policy).
    document.documentElement.innerHTML = html.replace(/<script>[\s\S]*?<\/script>/, '');
    const script = document.createElement('script');
    script.textContent = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    document.body.append(script);
    const choose = (id: string, text: string) => {
      const input = document.getElementById(id) as HTMLInputElement;
      Object.defineProperty(input, 'files', { configurable: true, value: [new File([text], id)] });
      input.dispatchEvent(new Event('change'));
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
    expect(await verify()).toEqual([`Đã xác minh 8 sự kiện, tính đến checkpoint #${log.leaves.length}`]);
    bundle.streams[0]!.events.pop();
    choose('bundle', JSON.stringify(bundle));
    expect(await verify()).toEqual([
      expect.stringMatching(
        /^Không xác minh được: stream execution-a, vị trí 4 \(leaf \d+\): sự kiện mà log lưu ở vị trí này bị thiếu hoặc đã bị thay thế$/,
      ),
    ]);
  });
});
