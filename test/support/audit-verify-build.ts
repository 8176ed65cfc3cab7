import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/** What `npm run build:audit-verify` makes: the verifier for node, and the verifier page. */
const OUTPUTS = ['dist/audit-verify.js', 'dist/audit-verify.html'].map((file) => path.join(ROOT, file));

/** The files they are built from. */
const SOURCES = ['src/audit-verify', 'src/domain/audit', 'scripts'].flatMap((dir) =>
  readdirSync(path.join(ROOT, dir)).map((name) => path.join(ROOT, dir, name)),
);

/** Builds the verifier and its page unless both are built from the sources as they are. */
export function built(): void {
  const newest = Math.max(...SOURCES.map((file) => statSync(file).mtimeMs));
  if (!OUTPUTS.every((file) => existsSync(file) && statSync(file).mtimeMs >= newest)) {
    execFileSync('npm', ['run', '-s', 'build:audit-verify'], { cwd: ROOT, stdio: 'inherit' });
  }
}
