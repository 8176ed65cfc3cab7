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
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const sql = connect(url.toString(), { appSecret: TEST_APP_SECRET });
  const older = options.migrationsBelow ? await migrationsBelow(options.migrationsBelow) : undefined;
  await migrate(sql, older);
  if (older) await rm(older, { recursive: true, force: true });
  return {
    url: url.toString(),
    sql,
    async drop() {
      await sql.end({ timeout: 5 });
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end({ timeout: 5 });
    },
  };
}

/** A folder with the migrations numbered below `number`, copied. */
async function migrationsBelow(number: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'migrations-'));
  const files = (await readdir(MIGRATIONS_DIR)).filter((name) => name.endsWith('.sql') && name < number);
  await Promise.all(files.map((name) => copyFile(path.join(MIGRATIONS_DIR, name), path.join(dir, name))));
  return dir;
}
