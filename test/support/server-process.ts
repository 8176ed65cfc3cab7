import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { TEST_APP_SECRET } from './test-app';

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

const withoutDatabaseUrl = ({ DATABASE_URL: _unused, ...env }: NodeJS.ProcessEnv) => env;

const ROOT = path.resolve(import.meta.dirname, '../..');
const BUILT_SERVER = path.join(ROOT, 'dist/server/server.js');

/**
 * Starts the built server (`dist/server/server.js`, what `npm start` runs) as its own process on a free port
 * and waits for its URL: these tests check the JavaScript that is deployed, not the sources under tsx.
 */
export async function startServerProcess(
  /** null: the embedded PostgreSQL in `env.DATA_DIR`. */
  databaseUrl: string | null,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  if (!existsSync(BUILT_SERVER)) throw new Error(`${BUILT_SERVER} is missing: run \`npm run build\` first`);
  const child = spawn(process.execPath, [BUILT_SERVER], {
    cwd: ROOT,
    env: {
      ...withoutDatabaseUrl(process.env),
      ...(databaseUrl === null ? {} : { DATABASE_URL: databaseUrl }),
      PORT: '0',
      HOST: '127.0.0.1',
      APP_SECRET: TEST_APP_SECRET,
      LOG_LEVEL: 'warn',
      GEMINI_API_KEY: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  return {
    url,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
