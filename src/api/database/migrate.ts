import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Sql } from 'postgres';
import { PROJECT_ROOT } from '../runtime/project-root';

export const MIGRATIONS_DIR = path.join(PROJECT_ROOT, 'migrations');

// Any constant shared by every process applying migrations to the same database.
const MIGRATION_LOCK = 7_340_211;

/** The numbered SQL files of this version, in the order they are applied. */
export async function migrationNames(dir: string = MIGRATIONS_DIR): Promise<string[]> {
  return (await readdir(dir)).filter((name) => /^\d+_.+\.sql$/.test(name)).sort();
}

/**
 * Applies the numbered SQL files not yet recorded, in order, under an advisory lock; `only` those named (the
 * schema a backup was made with). Returns the applied names.
 */
export async function migrate(sql: Sql, dir: string = MIGRATIONS_DIR, only?: Set<string>): Promise<string[]> {
  const files = (await migrationNames(dir)).filter((name) => !only || only.has(name));
  return sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await tx`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`;
    const done = new Set(
      (await tx<{ name: string }[]>`SELECT name FROM schema_migrations`).map((r) => r.name),
    );
    const applied: string[] = [];
    for (const name of files) {
      if (done.has(name)) continue;
      await tx.unsafe(await readFile(path.join(dir, name), 'utf8'));
      await tx`INSERT INTO schema_migrations (name) VALUES (${name})`;
      applied.push(name);
    }
    return applied;
  });
}
