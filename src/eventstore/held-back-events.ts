import type { Queryable } from './queryable';

/**
 * Whether committed events wait behind an older transaction still running, so `readAll` cannot return them
 * yet: the newest transaction id in the log is at or past the oldest one still running. Any write transaction
 * on the server holds that horizon back, in any database, not only appends.
 *
 * The newest id is the last entry of the index on transaction ids, one row read whatever the log's size. An
 * EXISTS over `transaction_id >= horizon` said the same, but the planner chose to scan the whole table for it,
 * which found nothing (so read every row) whenever nothing was held back: each read of the feed then cost a
 * scan that grew with the log.
 */
export const HELD_BACK = `
  COALESCE(
    (SELECT transaction_id FROM events ORDER BY transaction_id DESC LIMIT 1)
      >= pg_snapshot_xmin(pg_current_snapshot()),
    false
  )`;

/** HELD_BACK as a fragment. */
export const heldBack = (sql: Queryable) => sql.unsafe(HELD_BACK);

export async function hasHeldBackEvents(sql: Queryable): Promise<boolean> {
  const [row] = await sql<{ heldBack: boolean }[]>`SELECT ${heldBack(sql)} AS "heldBack"`;
  return row?.heldBack === true;
}
