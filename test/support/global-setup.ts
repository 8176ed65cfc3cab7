import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../../src/api/database/embedded-postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
  }
}

/**
 * One PostgreSQL server for the whole run: TEST_DATABASE_URL when given, otherwise an embedded one in a
 * temporary directory. Each test file then creates its own database on it (test/support/database.ts).
 */
export default async function setup(project: TestProject) {
  const given = process.env.TEST_DATABASE_URL;
  if (given) {
    project.provide('adminDatabaseUrl', given);
    return;
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'workbench-test-pg-'));
  await chmod(dir, 0o755);
  let database: EmbeddedDatabase;
  try {
    database = await startEmbeddedPostgres(path.join(dir, 'postgres'), { persistent: false });
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  project.provide('adminDatabaseUrl', database.url);
  return async () => {
    await database.stop();
    await rm(dir, { recursive: true, force: true });
  };
}
