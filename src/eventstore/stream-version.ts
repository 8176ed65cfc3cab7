import type { Queryable } from './queryable';

/** The number of events in the stream; 0 when it does not exist. */
export async function streamVersion(sql: Queryable, streamId: string): Promise<number> {
  const [row] = await sql<{ version: number | string }[]>`
    SELECT version AS "version" FROM streams WHERE stream_id = ${streamId}`;
  return row ? Number(row.version) : 0;
}
