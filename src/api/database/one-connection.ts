import type { Sql } from 'postgres';
import { sessionLost } from '../../eventstore';

/**
 * Reads that do not depend on each other, sent together on one connection of the pool: postgres.js writes
 * the statements a connection is given in one tick as one message, so they cost one write and one wake of
 * one PostgreSQL backend instead of one of each per statement. `reads` must hand every statement to the
 * connection at once (no awaiting between them).
 */
export async function onOneConnection<T extends readonly unknown[] | []>(
  sql: Sql,
  reads: (connection: Sql) => T,
): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const connection = await sql.reserve();
  let sent: readonly Promise<unknown>[];
  try {
    sent = reads(connection) as readonly Promise<unknown>[];
  } catch (error) {
    connection.release();
    throw error;
  }
  // Every statement answered before the connection goes back, also when one of them failed; unless the
  // session is lost: a statement not sent yet is then never answered, and the connection is postgres.js's
  // again (sessionLost), not to be released.
  const lost = new Promise<{ lost: unknown }>((resolve) => {
    for (const statement of sent)
      statement.catch((error: unknown) => {
        if (sessionLost(error)) resolve({ lost: error });
      });
  });
  const read = await Promise.race([Promise.allSettled(sent), lost]);
  if ('lost' in read) throw read.lost;
  connection.release();
  const failed = read.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  return read.map((result) => (result as PromiseFulfilledResult<unknown>).value) as {
    -readonly [K in keyof T]: Awaited<T[K]>;
  };
}
