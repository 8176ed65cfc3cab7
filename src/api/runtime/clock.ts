import type { Sql } from 'postgres';

/** A clock: milliseconds since the epoch. This process's own is `Date.now`. */
export type Clock = () => number;

/**
 * How far this process's clock may be from the database's before it is said (a warning at start, a reason of
 * /readyz): the times this process records (a run's start, a session's expiry) are read by every other process
 * against the database's clock, and a minute is far past any drift of a synchronised clock.
 */
export const CLOCK_SKEW_LIMIT_MS = 60_000;

/** The database's clock: `now()` read from PostgreSQL, the one time every server process shares. */
export async function databaseNow(sql: Sql): Promise<number> {
  const [row] = await sql<{ now: Date }[]>`SELECT now() AS now`;
  return row!.now.getTime();
}

/** How far `clock` is ahead of the database's (negative: behind), in ms. */
export async function clockSkewMs(sql: Sql, clock: Clock): Promise<number> {
  const sent = clock();
  const now = await databaseNow(sql);
  return skewOf(sent, clock(), now);
}

/** The skew a statement read `now()` with: the database's time against the middle of the round trip. */
export const skewOf = (sent: number, received: number, databaseNowMs: number) =>
  Math.round((sent + received) / 2 - databaseNowMs);

export const isClockSkewed = (skewMs: number) => Math.abs(skewMs) > CLOCK_SKEW_LIMIT_MS;

/** The warning a skewed clock is logged with. */
export function clockSkewWarning(skewMs: number): string {
  const seconds = Math.round(Math.abs(skewMs) / 1000);
  return (
    `This process's clock is ${seconds} s ${skewMs > 0 ? 'ahead of' : 'behind'} the database's: the times it ` +
    'records (run starts, session expiries) are off by as much for the other processes; synchronise the clock (NTP).'
  );
}
