import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/api/database/embedded-postgres';
import {
  type ClusterProcess,
  decideRunAs,
  initialiseCluster,
  type PostgresBinaries,
  type ShutdownMode,
  startClusterProcess,
} from '../../src/api/database/postgres-processes';

/** Debian's PostgreSQL 15 (POSTGRES_BIN_DIR for another directory holding initdb and postgres). */
const binDirectory = (env: NodeJS.ProcessEnv = process.env) =>
  env.POSTGRES_BIN_DIR || '/usr/lib/postgresql/15/bin';

/** Why a test cannot have a PostgreSQL of its own here, or null; under CI a missing one is an error. */
export function missingPostgres(): string | null {
  const directory = binDirectory();
  if (existsSync(path.join(directory, 'initdb')) && existsSync(path.join(directory, 'postgres'))) return null;
  const message =
    `PostgreSQL's programs are not in ${directory}: install Debian's postgresql (apt-get install -y postgresql), ` +
    'or set POSTGRES_BIN_DIR to a directory holding initdb and postgres.';
  if (process.env.CI === 'true') throw new Error(message);
  return message;
}

/** A PostgreSQL server only this test uses, so it may stop it and start it again. */
export interface OwnPostgres {
  /** The superuser on its `postgres` database, over TCP on 127.0.0.1 (the port kept across restarts). */
  url: string;
  /** Whether it is running now. */
  running(): boolean;
  /** Shuts it down (`pg_ctl stop -m fast` or `-m immediate`) and waits until it has exited. */
  stop(mode: ShutdownMode): Promise<void>;
  /** Starts it again on its port and waits until it accepts connections (after recovery, if it crashed). */
  start(): Promise<void>;
  /** Stops it and removes its data. */
  close(): Promise<void>;
}

/**
 * A new PostgreSQL cluster in a temporary directory, started on a free port. As root it runs the way the
 * embedded database does (PostgreSQL refuses root): as the `postgres` user, or in a user namespace of its own
 * (src/api/database/postgres-processes.ts).
 */
export async function ownPostgres(): Promise<OwnPostgres> {
  const directory = binDirectory();
  const binaries: PostgresBinaries = {
    initdb: path.join(directory, 'initdb'),
    postgres: path.join(directory, 'postgres'),
  };
  const dir = await mkdtemp(path.join(tmpdir(), 'workbench-own-pg-'));
  // As root PostgreSQL runs as `postgres`, which must reach the data directory inside.
  await chmod(dir, 0o755);
  const databaseDir = path.join(dir, 'data');
  const password = randomBytes(24).toString('base64url');
  const port = await freePort();
  const log = () => {};
  const runAs = await decideRunAs(databaseDir, binaries);
  let server: ClusterProcess | null = null;
  const start = async () => {
    server = await startClusterProcess({
      binaries,
      runAs,
      databaseDir,
      port,
      log,
      flags: [
        '-c',
        'listen_addresses=127.0.0.1',
        // TCP only: Debian's default socket directory belongs to its own service.
        '-c',
        'unix_socket_directories=',
        // Written to the kernel, not flushed to disk: a process killed loses nothing (the machine does not
        // crash under a test). synchronous_commit stays on: a commit acknowledged is in the WAL.
        '-c',
        'fsync=off',
      ],
    });
  };
  try {
    await initialiseCluster({ binaries, runAs, databaseDir, user: 'postgres', password, log });
    await start();
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const stop = async (mode: ShutdownMode) => {
    const running = server;
    server = null;
    await running?.stop(mode);
  };
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    running: () => server !== null,
    stop,
    start,
    close: async () => {
      await stop('fast');
      await rm(dir, { recursive: true, force: true });
    },
  };
}
