import type { Queryable } from './queryable';
import type { Checkpoint } from './types';

/** The checkpoint of the last event `readAll` can return right now: where a reader starting live begins. */
export async function headCheckpoint(sql: Queryable): Promise<Checkpoint | null> {
  const [row] = await sql<{ transactionId: string; globalPosition: number | string }[]>`
    SELECT transaction_id::text AS "transactionId", global_position AS "globalPosition" FROM events
    WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
    ORDER BY transaction_id DESC, global_position DESC
    LIMIT 1`;
  return row ? { transactionId: row.transactionId, globalPosition: Number(row.globalPosition) } : null;
}
