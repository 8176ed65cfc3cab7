import type { ChildProcess } from 'node:child_process';
import { startInstance } from '../../src/api/cli/cluster-processes';
import { TEST_POOL_ENV } from './database';
import { TEST_APP_SECRET, UNREACHABLE_GEMINI } from './test-app';

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** The test process's environment, without a DATABASE_URL that would point a server elsewhere. */
export const withoutDatabaseUrl = ({ DATABASE_URL: _unused, ...env }: NodeJS.ProcessEnv) => env;

/**
 * Starts the built server (`dist/server/server.js`, what `npm start` runs) as its own process on a free port
 * and waits for its URL: these tests check the JavaScript that is deployed, not the sources under tsx.
 */
export async function startServerProcess(
  /** null: the embedded PostgreSQL in `env.DATA_DIR`. */
  databaseUrl: string | null,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const instance = await startInstance({
    port: 0,
    env: {
      ...withoutDatabaseUrl(process.env),
      ...(databaseUrl === null ? {} : { DATABASE_URL: databaseUrl }),
      APP_SECRET: TEST_APP_SECRET,
      ...TEST_POOL_ENV,
      LOG_LEVEL: 'warn',
      GEMINI_API_KEY: '',
      GOOGLE_GEMINI_BASE_URL: UNREACHABLE_GEMINI,
      ...env,
    },
  });
  return {
    url: instance.url,
    child: instance.child,
    stop: async () => {
      await instance.stop();
    },
  };
}
