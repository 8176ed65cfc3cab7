import type { Queryable } from './queryable';
import type { EventMetadata, RecordedEvent } from './types';

/**
 * An event as a replay of the log reads it: its place in the log and its stream, type and data. A rebuild
 * of the read models reads every event once and needs no more; leaving out the metadata and the time spares
 * parsing them, about a third of each event's JSON.
 */
export type ReplayedEvent = Pick<
  RecordedEvent,
  'globalPosition' | 'transactionId' | 'streamId' | 'streamPosition' | 'eventId' | 'type' | 'data'
>;

/**
 * The columns of a ReplayedEvent. jsonb leaves as text, parsed here, so event data comes back as written
 * whatever a connection's transforms. The aliases are quoted camelCase so rows look the same whether or not
 * the connection transforms column names.
 */
export const REPLAYED_EVENT_COLUMNS = `
  global_position AS "globalPosition",
  transaction_id::text AS "transactionId",
  stream_id AS "streamId",
  stream_position AS "streamPosition",
  event_id AS "eventId",
  event_type AS "type",
  data::text AS "data"`;

/** The columns every read and append returns: a ReplayedEvent's, its metadata and its time. */
export const RECORDED_EVENT_COLUMNS = `${REPLAYED_EVENT_COLUMNS},
  metadata::text AS "metadata",
  created_at AS "createdAt"`;

/** REPLAYED_EVENT_COLUMNS as a fragment. */
export const replayedEventColumns = (sql: Queryable) => sql.unsafe(REPLAYED_EVENT_COLUMNS);

/** RECORDED_EVENT_COLUMNS as a fragment. */
export const recordedEventColumns = (sql: Queryable) => sql.unsafe(RECORDED_EVENT_COLUMNS);

export interface ReplayedEventRow {
  globalPosition: number | string;
  transactionId: string;
  streamId: string;
  streamPosition: number | string;
  eventId: string;
  type: string;
  data: string;
}

export interface RecordedEventRow extends ReplayedEventRow {
  metadata: string;
  createdAt: Date | string;
}

/** int8 arrives as a number or a string depending on the connection's parsers; both become numbers. */
export function toReplayedEvent(row: ReplayedEventRow): ReplayedEvent {
  return {
    globalPosition: Number(row.globalPosition),
    transactionId: row.transactionId,
    streamId: row.streamId,
    streamPosition: Number(row.streamPosition),
    eventId: row.eventId,
    type: row.type,
    data: JSON.parse(row.data),
  };
}

export function toRecordedEvent(row: RecordedEventRow): RecordedEvent {
  return {
    ...toReplayedEvent(row),
    metadata: JSON.parse(row.metadata) as EventMetadata,
    createdAt: (row.createdAt instanceof Date ? row.createdAt : new Date(row.createdAt)).toISOString(),
  };
}
