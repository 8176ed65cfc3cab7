import type { Queryable } from './queryable';
import type { EventMetadata, RecordedEvent } from './types';

/**
 * The columns every read and append returns. jsonb leaves as text because `postgres.camel` would rename the
 * keys inside event data (snake_case payloads must come back as written). The aliases are quoted camelCase so
 * rows look the same whether or not the connection transforms column names.
 */
export const recordedEventColumns = (sql: Queryable) => sql`
  global_position AS "globalPosition",
  transaction_id::text AS "transactionId",
  stream_id AS "streamId",
  stream_position AS "streamPosition",
  event_id AS "eventId",
  event_type AS "type",
  data::text AS "data",
  metadata::text AS "metadata",
  created_at AS "createdAt"`;

export interface RecordedEventRow {
  globalPosition: number | string;
  transactionId: string;
  streamId: string;
  streamPosition: number | string;
  eventId: string;
  type: string;
  data: string;
  metadata: string;
  createdAt: Date | string;
}

/** int8 arrives as a number or a string depending on the connection's parsers; both become numbers. */
export function toRecordedEvent(row: RecordedEventRow): RecordedEvent {
  return {
    globalPosition: Number(row.globalPosition),
    transactionId: row.transactionId,
    streamId: row.streamId,
    streamPosition: Number(row.streamPosition),
    eventId: row.eventId,
    type: row.type,
    data: JSON.parse(row.data),
    metadata: JSON.parse(row.metadata) as EventMetadata,
    createdAt: (row.createdAt instanceof Date ? row.createdAt : new Date(row.createdAt)).toISOString(),
  };
}
