import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { access, rename, rm } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { pipeline, type Writable } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';
import type { Sql } from 'postgres';
import { migrate, migrationNames } from './migrate';

/**
 * A backup is one gzip file: a JSON header line (what made it, the migrations its schema has, its tables and
 * sequences), then each table's rows (a table after those its foreign keys name) as PostgreSQL's COPY text between a `COPY <table>` line and a `\.` line,
 * then a JSON line with each table's row count, which a restore checks. Every table is read in one
 * REPEATABLE READ transaction: one consistent snapshot of everything, taken while the server runs on.
 */
export const BACKUP_FORMAT = 'prompt-flow-workbench-backup';
const BACKUP_VERSION = 1;

interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  /** The migrations the database had: a restore builds exactly that schema before it loads the rows. */
  migrations: string[];
  /** Tells a restore whether it runs with the APP_SECRET that sealed the users' own keys (never the secret). */
  secretCheck: string;
  tables: { name: string; columns: string[] }[];
  sequences: { name: string; value: number | null }[];
}

export class BackupError extends Error {
  override name = 'BackupError';
}

export const secretCheckOf = (appSecret: string) =>
  createHmac('sha256', appSecret).update('prompt-flow-workbench backup').digest('hex').slice(0, 16);

/**
 * The tables a backup holds: every logged table of the schema (the unlogged rate-limit counts are not worth
 * it), each with its columns but those holding transaction ids (the event log's `transaction_id`): they are
 * the ids of the cluster that wrote the rows, meaningless in another. A restore leaves them to their default,
 * the restoring transaction's id, so the whole restored log reads as committed by it, in the order of its
 * positions (which keeps every stream in order), and all that is appended later comes after it.
 */
async function tablesOf(sql: Sql): Promise<{ name: string; columns: string[] }[]> {
  const rows = await sql<{ name: string; columns: string[] }[]>`
    SELECT c.relname AS name,
           array_agg(a.attname::text ORDER BY a.attnum) AS columns
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      AND a.atttypid NOT IN ('xid'::regtype, 'xid8'::regtype)
    WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relpersistence = 'p'
      AND c.relname <> 'schema_migrations'
    GROUP BY c.relname ORDER BY c.relname`;
  return rows.map((row) => ({ name: row.name, columns: row.columns }));
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
const columnList = (columns: string[]) => columns.map(quoted).join(', ');

/** Rows a cursor hands over at a time. */
const ROWS_PER_READ = 200;

const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** A value as PostgreSQL's COPY text format writes it: its text form, escaped; NULL as \N. */
const copyText = (value: Buffer | null) =>
  value === null
    ? '\\N'
    : value.toString('utf8').replace(/[\\\n\r\t]/g, (character) => COPY_ESCAPES[character]!);

/**
 * Writes a table's rows visible to the transaction as COPY text (what `COPY ... TO STDOUT` writes:
 * each value's text form, escaped), read through a cursor as raw text values, a batch at a time, each written
 * (and let drain) before the next is read; answers how many rows. Not `COPY TO STDOUT` itself: postgres.js pauses its
 * connection when a COPY's rows arrive faster than they are read and, when the COPY ends meanwhile, never
 * resumes it, so the transaction's next statement waits for ever.
 */
async function copyTable(
  tx: Sql,
  table: { name: string; columns: string[] },
  write: (text: string) => Promise<void>,
): Promise<number> {
  let count = 0;
  const cursor = tx
    .unsafe(`SELECT ${columnList(table.columns)} FROM ${quoted(table.name)}`)
    .raw()
    .cursor(ROWS_PER_READ);
  for await (const rows of cursor) {
    const text = (rows as unknown as (Buffer | null)[][])
      .map((row) => `${row.map(copyText).join('\t')}\n`)
      .join('');
    count += rows.length;
    await write(text);
  }
  return count;
}

/** Writes a backup of the database at `sql` to `file` (through a temporary file, so a failure leaves none). */
export async function writeBackup(
  sql: Sql,
  file: string,
  appSecret: string,
): Promise<Record<string, number>> {
  const partial = `${file}.partial`;
  const gzip = createGzip();
  const out = createWriteStream(partial, { mode: 0o600 });
  const written = new Promise<void>((resolve, reject) =>
    pipeline(gzip, out, (error) => (error ? reject(error) : resolve())),
  );
  written.catch(() => {});
  const write = async (text: string | Buffer) => {
    if (!gzip.write(text)) await once(gzip, 'drain');
  };
  try {
    const counts = await sql.begin('isolation level repeatable read read only', async (tx) => {
      const tables = await parentsFirst(tx as unknown as Sql, await tablesOf(tx as unknown as Sql));
      const migrations = (await tx<{ name: string }[]>`SELECT name FROM schema_migrations ORDER BY name`).map(
        (row) => row.name,
      );
      const sequences = await tx<{ name: string; value: number | null }[]>`
        SELECT sequencename AS name, last_value::bigint AS value FROM pg_sequences
        WHERE schemaname = current_schema() ORDER BY sequencename`;
      const header: BackupHeader = {
        format: BACKUP_FORMAT,
        version: BACKUP_VERSION,
        createdAt: new Date().toISOString(),
        migrations,
        secretCheck: secretCheckOf(appSecret),
        tables,
        sequences: sequences.map(({ name, value }) => ({ name, value })),
      };
      await write(`${JSON.stringify(header)}\n`);
      const counts: Record<string, number> = {};
      for (const table of tables) {
        await write(`COPY ${table.name}\n`);
        counts[table.name] = await copyTable(tx as unknown as Sql, table, write);
        await write('\\.\n');
      }
      return counts;
    });
    await write(`${JSON.stringify({ end: true, rows: counts })}\n`);
    gzip.end();
    await written;
    await rename(partial, file);
    return counts;
  } catch (error) {
    gzip.destroy();
    await rm(partial, { force: true });
    throw error;
  }
}

/** `tables` ordered so that a table comes after every table its foreign keys name. */
async function parentsFirst<T extends { name: string }>(sql: Sql, tables: T[]): Promise<T[]> {
  const keys = await sql<{ child: string; parent: string }[]>`
    SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent
    FROM pg_constraint c
    WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace AND c.conrelid <> c.confrelid`;
  const ordered: T[] = [];
  const placed = new Set<string>();
  let left = [...tables];
  while (left.length > 0) {
    const ready = left.filter((table) =>
      keys.every(
        (key) =>
          key.child !== table.name || placed.has(key.parent) || !left.some((t) => t.name === key.parent),
      ),
    );
    if (ready.length === 0)
      throw new BackupError('The tables name each other in a circle: no order to load them in.');
    for (const table of ready) {
      ordered.push(table);
      placed.add(table.name);
    }
    left = left.filter((table) => !placed.has(table.name));
  }
  return ordered;
}

/** Reads a backup's lines in order. */
function backupLines(file: string) {
  // A read or gunzip failure destroys `input` with it, and the next line read rejects with it.
  const input = pipeline(createReadStream(file), createGunzip(), () => {});
  return createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })[Symbol.asyncIterator]();
}

/** The migrations recorded in the database; none in one never migrated. */
async function appliedMigrations(sql: Sql): Promise<string[]> {
  const [state] = await sql<{ migrated: boolean }[]>`
    SELECT to_regclass('schema_migrations') IS NOT NULL AS migrated`;
  if (!state?.migrated) return [];
  return (await sql<{ name: string }[]>`SELECT name FROM schema_migrations`).map((row) => row.name);
}

/**
 * Whether the database is empty: no table of ours holds a row (a database never started, or one a server
 * just created and migrated, with no account in it yet).
 */
export async function isEmptyDatabase(sql: Sql): Promise<boolean> {
  if ((await appliedMigrations(sql)).length === 0) return true;
  for (const table of await tablesOf(sql)) {
    const [row] = await sql.unsafe<{ any: boolean }[]>(
      `SELECT EXISTS (SELECT 1 FROM ${quoted(table.name)}) AS any`,
    );
    if (row?.any) return false;
  }
  return true;
}

/**
 * Loads the backup in `file` into the empty database at `sql`: the schema the backup was made with (its
 * migrations), its rows (triggers off: counts and checks were kept in the rows themselves) and its sequences,
 * then the migrations of this version it did not have, as an upgrade would. Answers the rows loaded per
 * table and whether APP_SECRET is the one the backup's own keys were sealed with.
 */
export async function restoreBackup(
  sql: Sql,
  file: string,
  secret: { appSecret: string; allowAnother: boolean },
): Promise<{ rows: Record<string, number>; sameSecret: boolean }> {
  await access(file).catch(() => {
    throw new BackupError(`${file} cannot be read.`);
  });
  const lines = backupLines(file);
  const next = async () => {
    const line = await lines.next();
    if (line.done) throw new BackupError(`${file} ends before the backup does: it is cut short.`);
    return line.value;
  };
  let header: BackupHeader;
  try {
    header = JSON.parse(await next()) as BackupHeader;
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`${file} is not a backup of this application.`);
  }
  if (header?.format !== BACKUP_FORMAT) throw new BackupError(`${file} is not a backup of this application.`);
  if (header.version !== BACKUP_VERSION)
    throw new BackupError(
      `${file} is a backup of format ${header.version}; this version reads ${BACKUP_VERSION}.`,
    );
  const known = new Set(await migrationNames());
  const unknown = header.migrations.filter((name) => !known.has(name));
  if (unknown.length > 0)
    throw new BackupError(
      `${file} was made by a newer version (migrations ${unknown.join(', ')}): restore it with that version.`,
    );
  const sameSecret = header.secretCheck === secretCheckOf(secret.appSecret);
  if (!sameSecret && !secret.allowAnother)
    throw new BackupError(
      "APP_SECRET is not the one the backup was made with: the users' own API keys would not decrypt and every " +
        "session would end. Set APP_SECRET to that secret (or copy that DATA_DIR's app-secret file here), or " +
        'restore with --other-secret to go on without them.',
    );
  if (!(await isEmptyDatabase(sql)))
    throw new BackupError(
      'The database to restore into is not empty: restore into a new database or DATA_DIR.',
    );

  // The rows fit the schema of the backup's migrations; those after it must change them as an upgrade does,
  // so a database already past that schema (a server started on it first) cannot take them.
  const ahead = (await appliedMigrations(sql)).filter((name) => !header.migrations.includes(name));
  if (ahead.length > 0)
    throw new BackupError(
      `The database to restore into has migrations the backup does not (${ahead.join(', ')}): restore into a ` +
        'database no server has started on, or a new DATA_DIR.',
    );
  await migrate(sql, undefined, new Set(header.migrations));
  const rows: Record<string, number> = {};
  await loadRows(sql, file, header, next, rows).catch((error: unknown) => {
    // What PostgreSQL or the parser refuses of the file says so, without a stack.
    if (error instanceof BackupError) throw error;
    throw new BackupError(`${file} does not fit this database: ${(error as Error).message}`);
  });
  await migrate(sql);
  return { rows, sameSecret };
}

/** The tables' rows and the sequences of the backup, in one transaction: all of them, or nothing. */
async function loadRows(
  sql: Sql,
  file: string,
  header: BackupHeader,
  next: () => Promise<string>,
  rows: Record<string, number>,
) {
  await sql.begin(async (tx) => {
    // Rows go in as they were: no trigger of ours runs (the usage counts are rows of the backup too). Foreign
    // keys still hold: the backup holds parents before the tables that name them.
    for (const table of header.tables)
      await tx.unsafe(`ALTER TABLE ${quoted(table.name)} DISABLE TRIGGER USER`);
    for (const table of header.tables) {
      const opening = await next();
      if (opening !== `COPY ${table.name}`)
        throw new BackupError(`${file} is damaged near table ${table.name}.`);
      const copy = (await tx
        .unsafe(`COPY ${quoted(table.name)} (${columnList(table.columns)}) FROM STDIN`)
        .writable()) as Writable;
      // A COPY the server refuses ends its stream with the error: every wait below ends with it then.
      const refused = new Promise<never>((_resolve, reject) => copy.once('error', reject));
      refused.catch(() => {});
      const closed = new Promise((resolve) => copy.on('close', resolve));
      let count = 0;
      let flushed = Promise.resolve();
      for (let line = await next(); line !== '\\.'; line = await next()) {
        count += 1;
        let taken = true;
        flushed = new Promise<void>((resolve) => {
          taken = copy.write(`${line}\n`, () => resolve());
        });
        if (!taken) await Promise.race([once(copy, 'drain'), refused]);
      }
      // All of it handed over, the end goes at once. postgres.js never reports a COPY refused once all of its
      // data arrived: the statement after it, answered after the COPY's outcome, fails then.
      await Promise.race([flushed, refused]);
      copy.end();
      const answered = tx`SELECT 1`.execute();
      answered.catch(() => {});
      await Promise.race([answered, refused]).catch((error: Error) => {
        throw new BackupError(`${file} is damaged: table ${table.name}: ${error.message}`);
      });
      await closed;
      rows[table.name] = count;
    }
    const trailer = JSON.parse(await next()) as { end?: boolean; rows?: Record<string, number> };
    if (!trailer.end || JSON.stringify(trailer.rows) !== JSON.stringify(rows))
      throw new BackupError(`${file} does not hold the rows it lists: it is damaged.`);
    for (const sequence of header.sequences) {
      if (sequence.value !== null) await tx`SELECT setval(${quoted(sequence.name)}, ${sequence.value})`;
    }
    for (const table of header.tables)
      await tx.unsafe(`ALTER TABLE ${quoted(table.name)} ENABLE TRIGGER USER`);
  });
}
