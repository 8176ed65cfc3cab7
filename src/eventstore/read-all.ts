import { heldBack } from './held-back-events';
import type { Queryable } from './queryable';
import { type RecordedEventRow, recordedEventColumns, toRecordedEvent } from './recorded-event';
import type { Checkpoint, RecordedEvent } from './types';

const START: Checkpoint = { transactionId: '0', globalPosition: 0 };

export interface FeedPage {
  events: RecordedEvent[];
  /** The checkpoint of the last event, or the one given when there are none. */
  checkpoint: Checkpoint | null;
  /** Committed events wait behind an older transaction still running: they are not in this page yet. */
  heldBack: boolean;
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
export async function readFeed(
  sql: Queryable,
  { after, limit }: { after: Checkpoint | null; limit: number },
): Promise<FeedPage> {
  const from = after ?? START;
  const rows = await sql<(RecordedEventRow & { heldBack: boolean })[]>`
    SELECT horizon."heldBack", page.*
    FROM (SELECT ${heldBack(sql)} AS "heldBack") horizon
    LEFT JOIN LATERAL (
      SELECT ${recordedEventColumns(sql)} FROM events
      WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        AND (transaction_id, global_position) > (${from.transactionId}::xid8, ${from.globalPosition}::bigint)
      ORDER BY transaction_id, global_position
      LIMIT ${limit}
    ) page ON true
    ORDER BY page."transactionId"::xid8, page."globalPosition"`;
  const events = rows.filter((row) => row.eventId !== null).map(toRecordedEvent);
  const last = events.at(-1);
  return { events, checkpoint: last ? checkpointOf(last) : after, heldBack: rows[0]?.heldBack === true };
}

export const checkpointOf = (event: RecordedEvent): Checkpoint => ({
  transactionId: event.transactionId,
  globalPosition: event.globalPosition,
});
