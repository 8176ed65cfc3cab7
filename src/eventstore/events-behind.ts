import type { Queryable } from './queryable';
import type { Checkpoint } from './types';

/**
 * How many events the feed of every stream could give after `after` right now (null: from the start), up to
 * `atMost`: how far a reader at that checkpoint is behind the log. Counted within the feed's horizon, as
 * `readFeed` reads, so events of a transaction still running are not counted yet.
 */
export async function eventsBehind(
  sql: Queryable,
  after: Checkpoint | null,
  atMost: number,
): Promise<number> {
  const from = after ?? { transactionId: '0', globalPosition: 0 };
  const [row] = await sql<{ behind: number }[]>`
    SELECT count(*)::int AS behind FROM (
      SELECT 1 FROM events
      WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        AND (transaction_id, global_position) > (${from.transactionId}::xid8, ${from.globalPosition}::bigint)
      LIMIT ${atMost}
    ) behind`;
  return row?.behind ?? 0;
}
