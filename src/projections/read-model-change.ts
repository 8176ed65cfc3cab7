import postgres, { type JSONValue, type Row, type TransactionSql } from 'postgres';
import type { Statement } from '../eventstore';

/** A read-model row as written: camelCase keys become snake_case columns. */
export type ReadModelRow = { id: string } & Record<string, unknown>;

/**
 * A jsonb column's value. postgres.js must be told (an array would otherwise travel as a PostgreSQL array);
 * in a batch's JSON recordset it is the value itself.
 */
export class JsonColumn {
  constructor(readonly value: unknown) {}

  toJSON() {
    return this.value;
  }
}

/** A column's value as postgres.js sends it: a jsonb column's marked as JSON. */
const parameterOf = (sql: TransactionSql, value: unknown) =>
  value instanceof JsonColumn ? sql.json(value.value as JSONValue) : value;

/**
 * The texts of the statements below by their shape (table, columns, runs changed), each made once. A change
 * is sent as its text and its values, prepared: what postgres.js makes of `sql(row)` helpers, without its
 * making it again for every statement (it searches the text before each helper for its keyword, and renames
 * and quotes every column), which cost more than the rest of a projection's statement.
 */
const texts = new Map<string, string>();
/**
 * Shapes are few (tables by their columns), but an executions row's text also names how many runs a command
 * replaced: past this many texts a new shape is made each time and not kept, so memory stays bounded.
 */
const MAX_KEPT_TEXTS = 500;

function textOf(shape: string, make: () => string): string {
  let text = texts.get(shape);
  if (text === undefined) {
    text = make();
    if (texts.size < MAX_KEPT_TEXTS) texts.set(shape, text);
  }
  return text;
}

/** A column as postgres.js quotes a camelCase key of a helper: snake_case, in double quotes. */
const columnOf = (key: string) => `"${postgres.fromCamel(key).replace(/"/g, '""')}"`;

/** `$first, $first+1, ...`, one a value. */
const placeholders = (first: number, count: number) =>
  Array.from({ length: count }, (_, i) => `$${first + i}`).join(',');

/** Columns set to `$first, ...` in order, as an UPDATE's SET list. */
const setList = (keys: string[], first: number) =>
  keys.map((key, i) => `${columnOf(key)}=$${first + i}`).join(',');

/** A prepared statement of our text (never input) and its values. */
const prepared = (sql: TransactionSql, text: string, values: unknown[]) =>
  sql.unsafe<Row[]>(text, values as never[], { prepare: true });

/** Tables whose rows are added once by id and then changed by later events of their stream. */
export type KeyedTable =
  | 'ai_request_logs'
  | 'step_results'
  | 'master_mode_runs'
  | 'master_mode_execute_alls'
  | 'user_usage'
  | 'rejected_ideas'
  | 'step_reviews';

/** An execution's runs as changed by some events: runs replaced at their index, then runs added at the end. */
export interface RunsChange {
  replaced: { index: number; run: unknown }[];
  appended: unknown[];
}

/**
 * One write to the read models, as data: the projectors decide WHAT each row contains, once, and two writers
 * carry it out. Inline (a command's append) each change is its own statement; a rebuild folds a batch's
 * changes in memory and writes each table with multi-row statements. Every change is harmless to repeat,
 * except an execution row's change as a statement: a row that moved on fails it (see executionChanged).
 */
export type ReadModelChange =
  /** Adds the row unless its id is there. */
  | { type: 'insert'; table: KeyedTable; row: ReadModelRow }
  /** Sets columns of a row that reflects an older stream position than `position`. */
  | { type: 'update'; table: KeyedTable; id: string; set: Record<string, unknown>; position: number }
  /**
   * Writes an execution's row unless it already reflects this stream position or a later one; with `over`,
   * whatever position it is at (a command's own write over a row found elsewhere than its loaded version).
   */
  | { type: 'execution'; row: ReadModelRow & { position: number }; over?: true }
  /**
   * Changes the execution's row that reflects exactly the stream position `from` to reflect `position`:
   * sets the columns and changes its runs by `runs`, element by element, so the statement's size does not
   * grow with the execution's runs. A row at another position does not hold the state the change starts
   * from: the statement fails with EXECUTION_ROW_ELSEWHERE, and the command is written again with the row
   * whole (`execution` with `over`).
   */
  | {
      type: 'executionChanged';
      id: string;
      from: number;
      set: Record<string, unknown>;
      runs: RunsChange;
      position: number;
    }
  /**
   * A flow step run's usage row, without `usedDefaultKey`: whether the run used the default key is on its
   * request log (the key source of StepRunStarted), and a run without a log counts as the default key.
   */
  | { type: 'flowUsage'; row: ReadModelRow }
  /** A master row run's usage, only when it ran an ai step: who, which step and which key are on its run row. */
  | { type: 'masterUsage'; runId: string; at: string }
  /**
   * A deleted result leaves step_results and becomes a rejected idea of its flow. The row has no step and
   * label: they are read from the deleted result (the state loaded from the read model carries no results).
   */
  | { type: 'resultDeleted'; rejected: ReadModelRow };

/** What an INSERT of keyed rows does with a row already there. */
const INSERTED = 'ON CONFLICT (id) DO NOTHING';

/** Adds rows unless their id is there; every row has the same keys. */
export const insertRows = (sql: TransactionSql, table: KeyedTable, rows: ReadModelRow[]) =>
  rows.length === 1
    ? insertRow(sql, table, rows[0]!, INSERTED)
    : sql`INSERT INTO ${sql(table)} ${rowsOf(sql, table, rows)} ${sql.unsafe(INSERTED)}`;

/** What an INSERT of an execution row does with a row already there, at whatever position: written over. */
const WRITTEN_OVER = `
  ON CONFLICT (id) DO UPDATE SET
    status = excluded.status, current_step = excluded.current_step,
    execution_queue = excluded.execution_queue, execution_cache = excluded.execution_cache,
    steps = excluded.steps, runs = excluded.runs, reviews = excluded.reviews,
    completed_at = excluded.completed_at,
    position = excluded.position`;

/** What an INSERT of execution rows does with a row already there: written over only when older. */
const UPSERTED = `${WRITTEN_OVER}
  WHERE executions.position < excluded.position`;

/** The SQLSTATE of an execution row found at another position than a change starts from (migration 035). */
export const EXECUTION_ROW_ELSEWHERE = 'WBRME';

/** Whether a statement failed because an execution row was not at the position its change starts from. */
export const isExecutionRowElsewhere = (error: unknown) =>
  typeof error === 'object' &&
  error !== null &&
  (error as { code?: unknown }).code === EXECUTION_ROW_ELSEWHERE;

/** Writes execution rows, each only over an older one; every row has the same keys. */
export const upsertExecutions = (sql: TransactionSql, rows: ReadModelRow[]) =>
  rows.length === 1
    ? insertRow(sql, 'executions', rows[0]!, UPSERTED)
    : sql`INSERT INTO executions ${rowsOf(sql, 'executions', rows)} ${sql.unsafe(UPSERTED)}`;

/** One row's INSERT, then `rest` (what a conflict does). */
function insertRow(sql: TransactionSql, table: KeyedTable | 'executions', row: ReadModelRow, rest: string) {
  const keys = Object.keys(row);
  const text = textOf(`insert ${table} ${keys.join()} ${rest}`, () =>
    [
      `INSERT INTO "${table}"`,
      `(${keys.map(columnOf).join(',')})values(${placeholders(1, keys.length)})`,
      rest,
    ].join(' '),
  );
  return prepared(
    sql,
    text,
    keys.map((key) => parameterOf(sql, row[key])),
  );
}

/**
 * The rows of a multi-row INSERT, as one JSON parameter that PostgreSQL turns back into rows of the table's
 * types: the statement's text then depends on the columns only, not on the number of rows, so it is prepared
 * once and later ones travel pipelined (postgres.js waits for the server to describe every statement text it
 * has not seen before sending anything behind it).
 */
function rowsOf(sql: TransactionSql, table: KeyedTable | 'executions', rows: ReadModelRow[]) {
  const keys = Object.keys(rows[0]!);
  // Our own keys, never input: quoted, they are the table's snake_case columns.
  const columns = sql.unsafe(keys.map(columnOf).join(', '));
  // JsonColumn values become plain JSON here (toJSON), as json_populate_recordset wants for a jsonb column.
  const records = JSON.stringify(
    rows.map((row) => Object.fromEntries(keys.map((key) => [postgres.fromCamel(key), row[key]]))),
  );
  return sql`(${columns}) SELECT ${columns} FROM json_populate_recordset(NULL::${sql(table)}, ${records}::text::json)`;
}

/**
 * The row's runs changed by `change`, in SQL with its values from `$first`: each replaced run set at its
 * index (jsonb_set; usually none or one), then the added runs appended (jsonb's ||).
 */
function runsAfter(sql: TransactionSql, change: RunsChange, first: number) {
  const values: unknown[] = [];
  let runs = 'executions.runs';
  for (const { index, run } of change.replaced) {
    runs = `jsonb_set(${runs}, $${first + values.length}::text[], $${first + values.length + 1}::jsonb)`;
    values.push(`{${index}}`, sql.json(run as JSONValue));
  }
  if (change.appended.length > 0) {
    runs = `${runs} || $${first + values.length}::jsonb`;
    values.push(sql.json(change.appended as JSONValue));
  }
  return { runs, values };
}

/** A change as one statement, sent without waiting: a transaction's statements travel pipelined, in order. */
export function changeStatement(sql: TransactionSql, change: ReadModelChange): Statement {
  switch (change.type) {
    case 'insert':
      return insertRows(sql, change.table, [change.row]);
    case 'update': {
      const keys = [...Object.keys(change.set), 'position'];
      const text = textOf(
        `update ${change.table} ${keys.join()}`,
        () => `
        UPDATE "${change.table}" SET ${setList(keys, 1)}
        WHERE id = $${keys.length + 1} AND position < $${keys.length + 2}`,
      );
      const set = Object.values(change.set).map((value) => parameterOf(sql, value));
      return prepared(sql, text, [...set, change.position, change.id, change.position]);
    }
    case 'execution':
      return change.over
        ? insertRow(sql, 'executions', change.row, WRITTEN_OVER)
        : upsertExecutions(sql, [change.row]);
    case 'executionChanged': {
      const keys = Object.keys(change.set);
      const { runs, values } = runsAfter(sql, change.runs, keys.length + 1);
      const next = keys.length + values.length + 1;
      const text = textOf(
        `executionChanged ${keys.join()} ${runs}`,
        () => `
        WITH changed AS (
          UPDATE executions
          SET ${setList(keys, 1)}, runs = ${runs}, position = $${next}
          WHERE id = $${next + 1} AND position = $${next + 2}
          RETURNING id
        )
        SELECT execution_row_elsewhere($${next + 1}, $${next + 2}) WHERE NOT EXISTS (SELECT FROM changed)`,
      );
      const set = Object.values(change.set).map((value) => parameterOf(sql, value));
      return prepared(sql, text, [...set, ...values, change.position, change.id, change.from]);
    }
    case 'flowUsage': {
      const { id, userId, executionId, stepId, executionDate } = change.row;
      return sql`
        INSERT INTO user_usage (id, user_id, execution_id, step_id, used_default_key, execution_date)
        SELECT ${id}::uuid, ${userId as string}::uuid, ${executionId as string}::uuid, ${stepId as string}::uuid,
          COALESCE((SELECT key_source <> 'own' FROM ai_request_logs WHERE id = ${id}), true),
          ${executionDate as string}::timestamptz
        ON CONFLICT (id) DO NOTHING`;
    }
    case 'masterUsage':
      return sql`
        INSERT INTO user_usage (id, user_id, execution_id, step_id, used_default_key, execution_date)
        SELECT r.id, r.user_id, NULL, r.step_id, r.key_source <> 'own', ${change.at}::timestamptz
        FROM master_mode_runs r WHERE r.id = ${change.runId} AND r.step_type = 'ai'
        ON CONFLICT (id) DO NOTHING`;
    case 'resultDeleted': {
      const { id, userId, flowId, executionId, content, deletedAt, position } = change.rejected;
      return sql`
        WITH deleted AS (
          DELETE FROM step_results WHERE id = ${id} RETURNING step_id, step_order, label
        )
        INSERT INTO rejected_ideas
          (id, user_id, flow_id, execution_id, step_id, step_order, label, content, deleted_at, position)
        SELECT ${id}::uuid, ${userId as string}::uuid, ${flowId as string}::uuid, ${executionId as string}::uuid,
          (SELECT step_id FROM deleted), (SELECT step_order FROM deleted), (SELECT label FROM deleted),
          ${content as string}::text, ${deletedAt as string}::timestamptz, ${position as number}::bigint
        ON CONFLICT (id) DO NOTHING`;
    }
    default: {
      const unknown: never = change;
      throw new Error(`No statement for ${(unknown as { type: string }).type}`);
    }
  }
}
