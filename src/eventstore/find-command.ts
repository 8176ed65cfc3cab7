import type { Queryable } from './queryable';
import { type RecordedEventRow, recordedEventColumns, toRecordedEvent } from './recorded-event';
import type { RecordedEvent } from './types';

/** The events a command appended, in log order; null when it has not been appended. */
export async function findCommand(sql: Queryable, commandId: string): Promise<RecordedEvent[] | null> {
  // `metadata ? 'commandId'` is the partial index's predicate: without it the planner cannot use the index.
  const rows = await sql<RecordedEventRow[]>`
    SELECT ${recordedEventColumns(sql)} FROM events
    WHERE metadata ? 'commandId' AND metadata ->> 'commandId' = ${commandId}
    ORDER BY transaction_id, global_position`;
  return rows.length === 0 ? null : rows.map(toRecordedEvent);
}
