import { randomBytes } from 'node:crypto';
import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres, { type Sql } from 'postgres';
import { inject } from 'vitest';
import { connect } from '../../src/api/database/connection';
import { MIGRATIONS_DIR, migrate } from '../../src/api/database/migrate';

/** The tests' APP_SECRET: the servers they start use it, and the connections that append carry its event key. */
export const TEST_APP_SECRET = 'test-secret-test-secret-test-secret-0123456789';

/**
 * The tests' pools are small, as vitest runs availableParallelism() + 1 test files at once (3 on CI's two
 * cores) against one PostgreSQL, CI's own allowing 100 connections. One server instance of a test (an app of
 * test-app.ts, or a server process given TEST_POOL_ENV) opens at most TEST_POOL_SIZE + 1 LISTEN + the job
 * queue's 2 = 7. A test file holds at most three instances at once beside its database's pool (the cluster
 * test's three processes, the database restart test's three apps): 3 × 7 + 4 = 25 connections per worker, 75
 * for three workers. The admin connection is open only while a test database is made or dropped.
 */
export const TEST_POOL_SIZE = 4;

/** What a server process started by a test is given, for the same small pools (see TEST_POOL_SIZE). */
export const TEST_POOL_ENV = { DATABASE_POOL_SIZE: String(TEST_POOL_SIZE) };

export interface TestDatabase {
  url: string;
  sql: Sql;
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database of its own on the test server; `drop()` removes it. `migrationsBelow` stops
 * before the migration of that number, for a database as an older version left it.
 */
export async function createTestDatabase(options: { migrationsBelow?: string } = {}): Promise<TestDatabase> {
  const adminUrl = inject('adminDatabaseUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  await asAdmin((admin) => admin.unsafe(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const sql = connect(url.toString(), { max: TEST_POOL_SIZE, appSecret: TEST_APP_SECRET });
  const older = options.migrationsBelow ? await migrationsBelow(options.migrationsBelow) : undefined;
  await migrate(sql, older);
  if (older) await rm(older, { recursive: true, force: true });
  return {
    url: url.toString(),
    sql,
    async drop() {
      await sql.end({ timeout: 5 });
      await asAdmin((admin) => admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/** Runs `work` on a connection of the test server's admin, closed after. */
export async function asAdmin<T>(work: (admin: Sql) => Promise<T>): Promise<T> {
  const admin = postgres(inject('adminDatabaseUrl'), { max: 1, onnotice: () => {} });
  try {
    return await work(admin);
  } finally {
    await admin.end({ timeout: 5 });
  }
}

/** A folder with the migrations numbered below `number`, copied. */
async function migrationsBelow(number: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'migrations-'));
  const files = (await readdir(MIGRATIONS_DIR)).filter((name) => name.endsWith('.sql') && name < number);
  await Promise.all(files.map((name) => copyFile(path.join(MIGRATIONS_DIR, name), path.join(dir, name))));
  return dir;
}
