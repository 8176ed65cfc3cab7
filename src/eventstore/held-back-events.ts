import type { Queryable } from './queryable';

/**
 * Whether committed events wait behind an older transaction still running, so `readAll` cannot return them
 * yet. Any write transaction on the server holds that horizon back, in any database, not only appends.
 */
export async function hasHeldBackEvents(sql: Queryable): Promise<boolean> {
  const [row] = await sql<{ heldBack: boolean }[]>`
    SELECT EXISTS (
      SELECT 1 FROM events WHERE transaction_id >= pg_snapshot_xmin(pg_current_snapshot())
    ) AS "heldBack"`;
  return row?.heldBack === true;
}
