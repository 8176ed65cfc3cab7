import { HELD_BACK } from './held-back-events';
import type { Queryable } from './queryable';
import {
  RECORDED_EVENT_COLUMNS,
  REPLAYED_EVENT_COLUMNS,
  type RecordedEventRow,
  type ReplayedEvent,
  type ReplayedEventRow,
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
  return readPage<RecordedEventRow, RecordedEvent>(sql, read, RECORDED_PAGE, toRecordedEvent);
}

/** readFeed for a replay of the log: the same page, each event without its metadata and time. */
export function replayFeed(sql: Queryable, read: FeedRead): Promise<FeedPage<ReplayedEvent>> {
  return readPage<ReplayedEventRow, ReplayedEvent>(sql, read, REPLAYED_PAGE, toReplayedEvent);
}

/**
 * The page's statement over `columns`, whole: it is read after every commit, and postgres.js would build a
 * statement of fragments again on each read. $1 and $2 are the checkpoint, $3 the limit.
 */
const pageStatement = (columns: string) => `
    SELECT horizon."heldBack", page.*
    FROM (SELECT ${HELD_BACK} AS "heldBack") horizon
    LEFT JOIN LATERAL (
      SELECT ${columns} FROM events
      WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        AND (transaction_id, global_position) > ($1::xid8, $2::bigint)
      ORDER BY transaction_id, global_position
      LIMIT $3
    ) page ON true
    ORDER BY page."transactionId"::xid8, page."globalPosition"`;

const RECORDED_PAGE = pageStatement(RECORDED_EVENT_COLUMNS);
const REPLAYED_PAGE = pageStatement(REPLAYED_EVENT_COLUMNS);

const SNAPSHOT_PAGE = `
    SELECT ${REPLAYED_EVENT_COLUMNS} FROM events
    WHERE (transaction_id, global_position) > ($1::xid8, $2::bigint)
    ORDER BY transaction_id, global_position
    LIMIT $3`;

/**
 * replayFeed inside one repeatable-read transaction (a check of the read models against the log): every
 * event its snapshot sees, in the feed's order. Nothing is held back: an event committed after the snapshot
 * is not the snapshot's, however long one waits, and what was committed before it is all there.
 */
export async function replaySnapshotFeed(
  sql: Queryable,
  { after, limit }: FeedRead,
): Promise<FeedPage<ReplayedEvent>> {
  const from = after ?? START;
  const rows = await sql.unsafe<ReplayedEventRow[]>(
    SNAPSHOT_PAGE,
    [from.transactionId, from.globalPosition, limit],
    { prepare: true },
  );
  const events = rows.map(toReplayedEvent);
  const last = events.at(-1);
  return { events, checkpoint: last ? checkpointOf(last) : after, heldBack: false };
}

async function readPage<EventRow extends ReplayedEventRow, Event extends ReplayedEvent>(
  sql: Queryable,
  { after, limit }: FeedRead,
  statement: string,
  toEvent: (row: EventRow) => Event,
): Promise<FeedPage<Event>> {
  const from = after ?? START;
  const rows = await sql.unsafe<(EventRow & { heldBack: boolean })[]>(
    statement,
    [from.transactionId, from.globalPosition, limit],
    { prepare: true },
  );
  const events = rows.filter((row) => row.eventId !== null).map(toEvent);
  const last = events.at(-1);
  return { events, checkpoint: last ? checkpointOf(last) : after, heldBack: rows[0]?.heldBack === true };
}

export const checkpointOf = (event: Pick<RecordedEvent, 'transactionId' | 'globalPosition'>): Checkpoint => ({
  transactionId: event.transactionId,
  globalPosition: event.globalPosition,
});
