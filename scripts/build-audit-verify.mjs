/**
 * Builds the offline verifier of audit bundles (`npm run build:audit-verify`), each as one file:
 *
 * - dist/audit-verify.js: src/audit-verify/cli.ts with everything it uses (@noble, zod) bundled in, for plain
 *   node 20.19 or later, anywhere;
 * - dist/audit-verify.html: the verifier page, its script (src/audit-verify/page.ts bundled for browsers) and
 *   its style inline, under a Content-Security-Policy that lets only those two run and loads nothing.
 *
 * Each file is written whole under another name and then renamed, so a reader never sees half of one.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const source = (name) => `${root}src/audit-verify/${name}`;
const dist = `${root}dist`;

/** Writes `text` to `file` whole: to a file of its own first, then renamed over it. */
async function writeWhole(file, text) {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, file);
}

await mkdir(dist, { recursive: true });

const cli = await build({
  entryPoints: [source('cli.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  write: false,
  logLevel: 'warning',
});
await writeWhole(`${dist}/audit-verify.js`, cli.outputFiles[0].text);

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
await writeWhole(`${dist}/audit-verify.html`, html);
