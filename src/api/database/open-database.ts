import path from 'node:path';
import type { Sql } from 'postgres';
import type { Config } from '../runtime/config';
import { connect } from './connection';
import { startEmbeddedPostgres } from './embedded-postgres';
import { migrate } from './migrate';

export interface OpenDatabase {
  sql: Sql;
  url: string;
  embedded: boolean;
  close(): Promise<void>;
}

/**
 * DATABASE_URL when set; otherwise the embedded PostgreSQL in DATA_DIR/postgres (one process owns it).
 * Migrations are applied before anything else touches the database. Its connections carry the event key
 * derived from APP_SECRET (appending needs it; so does the migration that chains events recorded before).
 */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'> &
    Partial<Pick<Config, 'databasePoolSize'>> & { appSecret: string | undefined },
  log: (line: string) => void = () => {},
): Promise<OpenDatabase> {
  const embedded = config.databaseUrl
    ? null
    : await startEmbeddedPostgres(path.join(config.dataDir, 'postgres'), { log });
  const url = config.databaseUrl ?? embedded!.url;
  // The embedded PostgreSQL is on this machine: its Unix socket costs less than loopback TCP. `url` (TCP)
  // stays what other processes are given.
  const sql = connect(url, {
    max: config.databasePoolSize,
    socketDirectory: embedded?.socketDirectory,
    appSecret: config.appSecret,
  });
  try {
    await migrate(sql);
  } catch (error) {
    await sql.end({ timeout: 5 });
    await embedded?.stop();
    throw error;
  }
  return {
    sql,
    url,
    embedded: embedded !== null,
    async close() {
      await sql.end({ timeout: 5 });
      await embedded?.stop();
    },
  };
}
