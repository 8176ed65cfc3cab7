import { execFile } from 'node:child_process';
import path from 'node:path';
import { TEST_APP_SECRET } from './database';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CLI = ['--import', 'tsx', 'src/api/cli/events.ts'];

/** `npm run events -- <args>` against the database at `databaseUrl`, with the test's APP_SECRET unless `env` says. */
export function runEvents(
  databaseUrl: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...CLI, ...args],
      { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl, APP_SECRET: TEST_APP_SECRET, ...env } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
