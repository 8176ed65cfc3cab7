import { randomUUID } from 'node:crypto';
import type { Sql } from 'postgres';
import { connect } from '../src/api/database/connection';
import { EventStore, type NewEvent } from '../src/eventstore';
import { inTurn } from './commands';
import { median } from './load';
import { BENCH_APP_SECRET } from './server-process';

export interface AppendFigures {
  writers: number;
  seconds: number;
  /** Single-row INSERT transactions per second into a plain table: the ceiling an append is measured against. */
  rawInsertsPerSecond: number;
  /** store.append with one event per call, each writer on its own stream. */
  storeEventsPerSecond: number;
  /** Store events/s over raw INSERT tx/s, the median of the rounds' (target >= 0.6). */
  ratio: number;
  /** Each round's ratio. */
  roundRatios: number[];
  batchSize: number;
  batchAppendsPerSecond: number;
  /** Events per second with `batchSize` events per append (target >= 25,000). */
  batchEventsPerSecond: number;
}

/** Bounds every loop even if the clock misbehaves. */
const MAX_ITERATIONS_PER_WRITER = 2_000_000;
export const WARM_UP_SECONDS = 0.3;
const ROUNDS = 3;

/**
 * Append throughput against the database's own ceiling, in one run on one pool of `writers` connections:
 * raw single-row INSERT transactions, the store's append of one event, and of batches of 10, each writer on
 * its own stream looping for `seconds` in all. Events carry a commandId as a command's would, so the
 * idempotency check is paid.
 */
export async function benchAppend(
  url: string,
  options: { seconds?: number; writers?: number; batchSize?: number } = {},
): Promise<AppendFigures> {
  const seconds = options.seconds ?? 3;
  const writers = options.writers ?? 8;
  const batchSize = options.batchSize ?? 10;
  const sql = connect(url, { max: writers, appSecret: BENCH_APP_SECRET });
  try {
    await readyToWrite(sql, writers);
    const store = new EventStore(sql);

    // The phases take turns in short rounds (which goes first alternating), so a change in the machine's load
    // during the run (other processes, checkpoints, autovacuum) weighs on each of them alike instead of
    // skewing the ratio; the ratio is the median of the rounds', so one noisy round cannot move it.
    const phases = {
      raw: rawInsert(sql),
      single: storeAppend(store, 1),
      batched: storeAppend(store, batchSize),
    };
    for (const loop of Object.values(phases)) await measure(writers, WARM_UP_SECONDS, loop);
    const totals = { raw: new Tally(), single: new Tally(), batched: new Tally() };
    for (let n = 0; n < ROUNDS; n++) {
      for (const [, name] of inTurn(['raw', 'single', 'batched'] as const, n)) {
        totals[name].add(await measure(writers, seconds / ROUNDS, phases[name]));
      }
    }
    const raw = totals.raw.perSecond;
    const single = totals.single.perSecond;
    const batched = totals.batched.perSecond;
    const roundRatios = totals.single.rounds.map((perSecond, n) => perSecond / totals.raw.rounds[n]!);

    return {
      writers,
      seconds,
      rawInsertsPerSecond: raw,
      storeEventsPerSecond: single,
      ratio: median(roundRatios),
      roundRatios: roundRatios.map((ratio) => Number(ratio.toFixed(2))),
      batchSize,
      batchAppendsPerSecond: batched / batchSize,
      batchEventsPerSecond: batched,
    };
  } finally {
    await sql.end({ timeout: 5 });
  }
}

export const payload = (writer: number, n: number) => JSON.stringify({ writer, n });

/** The floor's table made, and every connection of the pool open before the clock starts. */
export async function readyToWrite(sql: Sql, writers: number) {
  await sql`CREATE TABLE IF NOT EXISTS bench_raw_inserts (
    id bigserial PRIMARY KEY, stream_id text NOT NULL, data jsonb NOT NULL)`;
  await Promise.all(Array.from({ length: writers }, () => sql`SELECT pg_sleep(0.01)`));
}

/** A writer's raw single-row INSERT transactions, the floor: one unit each. */
export const rawInsert = (sql: Sql) => (writer: number) => {
  const streamId = `raw-${writer}-${randomUUID()}`;
  let n = 0;
  return async () => {
    n += 1;
    await sql`INSERT INTO bench_raw_inserts (stream_id, data) VALUES (${streamId}, ${payload(writer, n)}::text::jsonb)`;
    return 1;
  };
};

/** A writer's store appends of `size` events to a stream of its own, each carrying a command id as a command's. */
export const storeAppend = (store: EventStore, size: number) => (writer: number) => {
  const streamId = `bench-${writer}-${randomUUID()}`;
  let version = 0;
  return async () => {
    const metadata = { commandId: randomUUID(), userId: 'bench' };
    const events: NewEvent[] = Array.from({ length: size }, (_, i) => ({
      type: 'BenchCounted',
      data: { writer, n: version + i + 1 },
      metadata,
    }));
    const result = await store.append(streamId, 'bench', version === 0 ? 'no_stream' : version, events);
    version = result.nextExpectedVersion;
    return size;
  };
};

class Tally {
  private units = 0;
  private seconds = 0;
  /** Each round's units a second. */
  readonly rounds: number[] = [];

  add(run: { units: number; seconds: number }) {
    this.units += run.units;
    this.seconds += run.seconds;
    this.rounds.push(run.units / run.seconds);
  }

  get perSecond() {
    return this.units / this.seconds;
  }
}

/** Runs `writers` loops side by side for `seconds`; each call of a loop's step returns the units it did. */
export async function measure(
  writers: number,
  seconds: number,
  loop: (writer: number) => () => Promise<number>,
): Promise<{ units: number; seconds: number }> {
  const started = performance.now();
  const until = started + seconds * 1000;
  const counts = await Promise.all(
    Array.from({ length: writers }, async (_, writer) => {
      const step = loop(writer);
      let units = 0;
      for (let i = 0; i < MAX_ITERATIONS_PER_WRITER && performance.now() < until; i++) units += await step();
      return units;
    }),
  );
  const units = counts.reduce((sum, count) => sum + count, 0);
  return { units, seconds: (performance.now() - started) / 1000 };
}
