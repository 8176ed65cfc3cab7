import type { PendingQuery, Row } from 'postgres';
import { heldBack } from './held-back-events';
import type { Queryable } from './queryable';
import {
  type RecordedEventRow,
  type ReplayedEvent,
  type ReplayedEventRow,
  recordedEventColumns,
  replayedEventColumns,
  toRecordedEvent,
  toReplayedEvent,
} from './recorded-event';
import type { Checkpoint, RecordedEvent } from './types';

const START: Checkpoint = { transactionId: '0', globalPosition: 0 };

export interface FeedPage<Event extends ReplayedEvent = RecordedEvent> {
  events: Event[];
  /** The checkpoint of the last event, or the one given when there are none. */
  checkpoint: Checkpoint | null;
  /** Committed events wait behind an older transaction still running: they are not in this page yet. */
  heldBack: boolean;
}

export interface FeedRead {
  after: Checkpoint | null;
  limit: number;
}

/**
 * A page of every stream's events strictly after the checkpoint, gap-safe: in (transaction_id,
 * global_position) order and only below the oldest transaction still running. Anything a later read can see
 * then sorts after what this read returned, so a reader that follows checkpoints never skips an event that a
 * slow transaction commits late (ordering by global_position alone would).
 *
 * The same statement (so the same snapshot) says whether committed events wait beyond that horizon. Any write
 * transaction on the server holds it back, not only appends, and its commit may send no notification: a
 * tailer uses this to look again soon instead of at its next poll.
 */
export function readFeed(sql: Queryable, read: FeedRead): Promise<FeedPage> {
  return readPage<RecordedEventRow, RecordedEvent>(sql, read, recordedEventColumns(sql), toRecordedEvent);
}

/** readFeed for a replay of the log: the same page, each event without its metadata and time. */
export function replayFeed(sql: Queryable, read: FeedRead): Promise<FeedPage<ReplayedEvent>> {
  return readPage<ReplayedEventRow, ReplayedEvent>(sql, read, replayedEventColumns(sql), toReplayedEvent);
}

async function readPage<EventRow extends ReplayedEventRow, Event extends ReplayedEvent>(
  sql: Queryable,
  { after, limit }: FeedRead,
  columns: PendingQuery<Row[]>,
  toEvent: (row: EventRow) => Event,
): Promise<FeedPage<Event>> {
  const from = after ?? START;
  const rows = await sql<(EventRow & { heldBack: boolean })[]>`
    SELECT horizon."heldBack", page.*
    FROM (SELECT ${heldBack(sql)} AS "heldBack") horizon
    LEFT JOIN LATERAL (
      SELECT ${columns} FROM events
      WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        AND (transaction_id, global_position) > (${from.transactionId}::xid8, ${from.globalPosition}::bigint)
      ORDER BY transaction_id, global_position
      LIMIT ${limit}
    ) page ON true
    ORDER BY page."transactionId"::xid8, page."globalPosition"`;
  const events = rows.filter((row) => row.eventId !== null).map(toEvent);
  const last = events.at(-1);
  return { events, checkpoint: last ? checkpointOf(last) : after, heldBack: rows[0]?.heldBack === true };
}

export const checkpointOf = (event: Pick<RecordedEvent, 'transactionId' | 'globalPosition'>): Checkpoint => ({
  transactionId: event.transactionId,
  globalPosition: event.globalPosition,
});
