/**
 * Builds dist/audit-verify.html: the offline verifier page, one file with its script and its style inline
 * (src/audit-verify/page.ts bundled for browsers, with @noble and zod), under a Content-Security-Policy that
 * lets only those two run and loads nothing from anywhere. Run by `npm run build:audit-verify`.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const source = (name) => `${root}src/audit-verify/${name}`;
const out = `${root}dist/audit-verify.html`;

const bundled = await build({
  entryPoints: [source('page.ts')],
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: ['es2022'],
  minify: true,
  legalComments: 'none',
  write: false,
  logLevel: 'warning',
});
const script = bundled.outputFiles[0].text.trim();
if (/<\/script|<!--/i.test(script))
  throw new Error('the bundled script holds text that ends an inline script');
const style = (await readFile(source('page.css'), 'utf8')).trim();
const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const policy = [
  "default-src 'none'",
  `script-src ${sha256(script)}`,
  `style-src ${sha256(style)}`,
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const template = await readFile(source('page.html'), 'utf8');
const parts = { '{{CSP}}': policy, '/* page.css */': style, '/* page.ts */': script };
let html = template;
for (const [placeholder, text] of Object.entries(parts)) {
  if (!html.includes(placeholder)) throw new Error(`page.html has no ${placeholder}`);
  html = html.replace(placeholder, () => text);
}
await mkdir(`${root}dist`, { recursive: true });
await writeFile(out, html);
