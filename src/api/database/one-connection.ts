import type { Sql } from 'postgres';

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
  let read: PromiseSettledResult<unknown>[];
  try {
    // Every statement answered before the connection goes back, also when one of them failed.
    read = await Promise.allSettled(reads(connection) as readonly unknown[]);
  } finally {
    connection.release();
  }
  const failed = read.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  return read.map((result) => (result as PromiseFulfilledResult<unknown>).value) as {
    -readonly [K in keyof T]: Awaited<T[K]>;
  };
}
