import type { Sql, TransactionSql } from 'postgres';
import { replaySnapshotFeed, SNAPSHOTS_TABLE } from '../eventstore';
import { READ_MODEL_TABLES, rebuildProjections } from './rebuild';

/** The tables a replay of the log writes, compared with what they hold. */
export const CHECKED_TABLES = [...READ_MODEL_TABLES, 'flows', 'steps'] as const;

/** Columns of a checked table that are no read model of the log: not compared. */
const NOT_FROM_THE_LOG: Partial<Record<(typeof CHECKED_TABLES)[number], string[]>> = {
  // "Clear logs": a setting of the flow's owner, kept beside the flow's versions.
  flows: ['logs_cleared_at'],
};

/** One way a read model differs from what the log gives. */
export interface ReadModelDifference {
  table: string;
  /** The row's primary key, its values joined by `/`. */
  key: string;
  /** The column that differs; null when the row is missing on one side. */
  column: string | null;
  /** What the log gives (undefined: no such row). */
  expected: unknown;
  /** What the table holds (undefined: no such row). */
  found: unknown;
}

export interface ProjectionsCheck {
  differences: ReadModelDifference[];
  /** Events replayed. */
  events: number;
  /** Rows the replay wrote, in all the checked tables. */
  rows: number;
}

/** Ends the check's transaction: nothing of it is kept. */
class Discarded extends Error {}

/**
 * Replays the whole log and compares every read model with the replay, in one repeatable-read transaction
 * on one connection (`sql` must be a pool of one, since temporary tables are its session's), rolled back at
 * the end: nothing is written, and the log and the read models are read at one moment, so a server running
 * meanwhile causes no difference. The replay is the rebuild itself, writing into temporary tables of the same
 * names and shapes, which PostgreSQL looks in before the schema's own.
 */
export async function checkProjections(sql: Sql): Promise<ProjectionsCheck> {
  let check: ProjectionsCheck | undefined;
  try {
    await sql.begin('isolation level repeatable read', async (tx) => {
      const [{ home } = { home: 'public' }] = await tx<{ home: string }[]>`SELECT current_schema() AS home`;
      await scratchTables(tx, home);
      const events = await replayInto(tx);
      check = { ...(await compare(tx, home)), events };
      throw new Discarded();
    });
  } catch (error) {
    if (!(error instanceof Discarded)) throw error;
  }
  return check!;
}

/** Temporary tables shadowing the rebuild's, with their keys and triggers (a count kept as rows come). */
async function scratchTables(tx: TransactionSql, home: string) {
  const tables = [...CHECKED_TABLES, SNAPSHOTS_TABLE];
  for (const table of tables) {
    await tx.unsafe(
      `CREATE TEMPORARY TABLE "${table}" (LIKE ${quoted(home)}."${table}" INCLUDING ALL) ON COMMIT DROP`,
    );
  }
  const triggers = await tx<{ table: string; definition: string }[]>`
    SELECT c.relname AS table, pg_get_triggerdef(t.oid) AS definition
    FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = ${home} AND c.relname = ANY(${tables}::text[]) AND NOT t.tgisinternal`;
  for (const { table, definition } of triggers) {
    // pg_get_triggerdef names the table `ON schema.table`, each part quoted only where it must be.
    const target = ` ON ${quoted(home)}.${quoted(table)} `;
    if (!definition.includes(target)) throw new Error(`The trigger cannot be copied: ${definition}`);
    await tx.unsafe(definition.replace(target, ` ON pg_temp.${quoted(table)} `));
  }
}

const quoted = (name: string) => (/^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`);

/**
 * The rebuild into the scratch tables: each batch in a savepoint, and every statement one after the other,
 * since the rebuild reads the next batch while it writes one, and a connection in the middle of a COPY
 * takes no other statement.
 */
async function replayInto(tx: TransactionSql): Promise<number> {
  let turn: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(work: () => PromiseLike<T>): Promise<T> => {
    const done = turn.then(work);
    turn = done.catch(() => {});
    return done;
  };
  return rebuildProjections(
    {
      unsafe: (text) => inTurn(() => tx.unsafe(text)),
      begin: (work) => inTurn(() => tx.savepoint(work)),
    },
    { replayFeed: (read) => inTurn(() => replaySnapshotFeed(tx, read)) },
  );
}

/** Each table's rows as the replay wrote them against those stored, both ways, as jsonb. */
async function compare(tx: TransactionSql, home: string): Promise<Omit<ProjectionsCheck, 'events'>> {
  const differences: ReadModelDifference[] = [];
  let rows = 0;
  for (const table of CHECKED_TABLES) {
    const left = NOT_FROM_THE_LOG[table] ?? [];
    const stored = `${quoted(home)}."${table}"`;
    const replayed = `pg_temp."${table}"`;
    const [{ count } = { count: 0 }] = await tx.unsafe<{ count: number }[]>(
      `SELECT count(*)::int AS count FROM ${replayed}`,
    );
    rows += count;
    const sides = await tx.unsafe<{ side: 'expected' | 'found'; row: Record<string, unknown> }[]>(
      `
      SELECT 'expected' AS side, row FROM (
        SELECT to_jsonb(r) - $1::text[] AS row FROM ${replayed} r
        EXCEPT SELECT to_jsonb(s) - $1::text[] FROM ${stored} s) d
      UNION ALL
      SELECT 'found' AS side, row FROM (
        SELECT to_jsonb(s) - $1::text[] AS row FROM ${stored} s
        EXCEPT SELECT to_jsonb(r) - $1::text[] FROM ${replayed} r) d`,
      [left],
    );
    if (sides.length === 0) continue;
    const keyColumns = await primaryKey(tx, home, table);
    const byKey = new Map<string, { expected?: Record<string, unknown>; found?: Record<string, unknown> }>();
    for (const { side, row } of sides) {
      const key = keyColumns.map((column) => String(row[column])).join('/');
      const pair = byKey.get(key) ?? {};
      pair[side] = row;
      byKey.set(key, pair);
    }
    for (const [key, { expected, found }] of [...byKey].sort(([a], [b]) => a.localeCompare(b))) {
      if (!expected || !found) {
        differences.push({ table, key, column: null, expected, found });
        continue;
      }
      for (const column of Object.keys({ ...expected, ...found }).sort()) {
        if (JSON.stringify(expected[column]) !== JSON.stringify(found[column]))
          differences.push({ table, key, column, expected: expected[column], found: found[column] });
      }
    }
  }
  return { differences, rows };
}

async function primaryKey(tx: TransactionSql, home: string, table: string): Promise<string[]> {
  const columns = await tx<{ name: string }[]>`
    SELECT a.attname AS name
    FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
    WHERE i.indrelid = ${`${quoted(home)}.${quoted(table)}`}::regclass AND i.indisprimary
    ORDER BY array_position(i.indkey::int2[], a.attnum)`;
  return columns.length > 0 ? columns.map((c) => c.name) : ['id'];
}
