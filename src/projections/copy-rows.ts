import postgres, { type TransactionSql } from 'postgres';
import { JsonColumn, type ReadModelRow } from './read-model-change';

/** The characters COPY's text format reads as delimiters or escapes, each as its escape. */
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const ESCAPED = /[\\\n\r\t]/g;
const NEEDS_ESCAPE = /[\\\n\r\t]/;
const escaped = (text: string) =>
  NEEDS_ESCAPE.test(text) ? text.replace(ESCAPED, (character) => ESCAPES[character]!) : text;
/** JSON.stringify writes control characters as escapes: only its backslashes need doubling. */
const escapedJson = (json: string) => (json.includes('\\') ? json.replaceAll('\\', '\\\\') : json);

/** A value as a field of COPY's text format: PostgreSQL parses it with the column type's own input. */
function field(value: unknown): string {
  if (typeof value === 'string') return escaped(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null || value === undefined) return '\\N';
  if (value instanceof Date) return value.toISOString();
  const json = JSON.stringify(value instanceof JsonColumn ? value.value : value) as string | undefined;
  return json === undefined ? '\\N' : escapedJson(json);
}

/** Rows as COPY's text format: one line each, fields in the order of the row's keys. */
export function copyText(rows: ReadModelRow[]): string {
  let text = '';
  for (const row of rows) {
    let separator = '';
    for (const key in row) {
      text += separator + field(row[key]);
      separator = '\t';
    }
    text += '\n';
  }
  return text;
}

/** Rows for one COPY: every row has the same keys, in the same order. */
export interface TableRows {
  table: string;
  rows: ReadModelRow[];
}

/** Rows for one COPY, encoded: its columns and its text. */
export interface EncodedRows {
  table: string;
  columns: string;
  text: string;
}

export function encodeRows({ table, rows }: TableRows): EncodedRows {
  // Our own keys, never input: quoted, they are the table's snake_case columns.
  const columns = Object.keys(rows[0]!)
    .map((key) => `"${postgres.fromCamel(key)}"`)
    .join(', ');
  return { table, columns, text: copyText(rows) };
}

const encoded = (copy: TableRows | EncodedRows) => ('text' in copy ? copy : encodeRows(copy));

/**
 * Adds rows to tables with COPY FROM STDIN, one COPY after the other, each encoded while the server takes the
 * one before unless it was encoded ahead. Unlike an INSERT, a COPY is refused whole when a row's id is there
 * already: only for ids no earlier write can have used.
 */
export async function copyRows(sql: TransactionSql, copies: (TableRows | EncodedRows)[]): Promise<void> {
  let next = copies.length > 0 ? encoded(copies[0]!) : null;
  for (let i = 0; next; i++) {
    const taken = await sendCopy(sql, next);
    next = i + 1 < copies.length ? encoded(copies[i + 1]!) : null;
    await taken();
  }
}

/** Sends one COPY's data and its end; what it returns waits for the server to have taken them. */
async function sendCopy(sql: TransactionSql, { table, columns, text }: EncodedRows) {
  const copy = await sql.unsafe(`COPY ${table} (${columns}) FROM STDIN`).writable();
  // A COPY the server refuses midway ends its stream with the error; the statement below fails then too.
  copy.on('error', () => {});
  const closed = new Promise((resolve) => copy.on('close', resolve));
  await new Promise<void>((resolve) => copy.write(text, () => resolve()));
  // With nothing left to write, end() sends the end of the data at once, before the statement below.
  copy.end();
  // postgres.js never reports a COPY refused once all of its data arrived: this statement, answered after the
  // COPY's outcome, fails then (the transaction is aborted).
  const answered = sql`SELECT 1`.execute();
  answered.catch(() => {});
  return async () => {
    await answered;
    // Closing, postgres.js still sends a message the server ignores outside a COPY: not into the next one.
    await closed;
  };
}
