import { randomUUID } from 'node:crypto';
import { connect } from '../src/api/database/connection';
import { EventStore } from '../src/eventstore';
import { call, createFlows, type Row, round, STEP_RUN_HEADERS, signUp } from './load';
import { BENCH_APP_SECRET, serverEnv, startProcess } from './server-process';

// Growth: does a step run on a long execution cost what one on a new execution costs, on an instance that
// keeps no state of it (after a restart, or another instance wrote last)? Snapshots are what makes it so.

/** Events on the long execution: about two a step run. */
const LONG_EVENTS = Number(process.env.BENCH_GROWTH_EVENTS ?? 10_000);
/** Real step runs whose events are copied to make the long execution, and events per copying append. */
const MODEL_RUNS = 10;
const COPY_BATCH = 1000;
const ROUNDS = 3;
/** Step runs a round times on each execution, in turns between two instances. */
const TURNS = 20;

type Server = ReturnType<typeof startProcess>;

const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timed(work: () => Promise<unknown>) {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/**
 * (a) A step run on an execution of 10,000 events on an instance just started (nothing kept), against one
 * on a new execution on the same instance, and (b) step runs on each through two instances taking turns (so
 * each finds the state it kept out of date): each a ratio of the new execution's time to the long one's,
 * the median of three rounds that alternate which goes first.
 */
export async function benchGrowth(databaseUrl: string) {
  const env = serverEnv(databaseUrl);
  const one = startProcess(['src/api/server.ts'], env);
  const other = startProcess(['src/api/server.ts'], env);
  const started: Server[] = [];
  try {
    const [base, otherBase] = await Promise.all([one.url, other.url]);
    const cookie = await signUp(base);
    const [flow] = await createFlows(base, cookie, 1);
    const run = (on: string, executionId: string) =>
      call(
        on,
        cookie,
        'POST',
        `/api/executions/${executionId}/steps/${flow!.step.id}/execute`,
        {},
        STEP_RUN_HEADERS,
      );
    const newExecution = async () =>
      (await call(base, cookie, 'POST', `/api/flows/${flow!.flow.id}/execute`)).id;

    const long = await newExecution();
    const building = performance.now();
    for (let i = 0; i < MODEL_RUNS; i++) await run(base, long);
    const events = await lengthen(databaseUrl, `execution-${long}`, LONG_EVENTS);
    // The servers fold the appended events once (writing a snapshot) before anything is timed.
    await run(base, long);
    await run(otherBase, long);
    const buildSeconds = (performance.now() - building) / 1000;

    // (a) Cold: a new instance per round, warmed up on an execution of its own, then one step run on each.
    const cold: { long: number; fresh: number }[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const instance = startProcess(['src/api/server.ts'], env);
      started.push(instance);
      const at = await instance.url;
      const warm = await newExecution();
      for (let i = 0; i < 20; i++) await run(at, warm);
      const fresh = await newExecution();
      const times = { long: 0, fresh: 0 };
      for (const which of r % 2 === 0 ? (['long', 'fresh'] as const) : (['fresh', 'long'] as const)) {
        times[which] = await timed(() => run(at, which === 'long' ? long : fresh));
      }
      cold.push(times);
      await instance.stop();
    }

    // (b) Two instances taking turns on one execution: every step run finds its instance's kept state stale.
    const turns: { long: number; fresh: number }[] = [];
    const inTurns = async (executionId: string) => {
      let ms = 0;
      for (let i = 0; i < TURNS; i++)
        ms += await timed(() => run(i % 2 === 0 ? base : otherBase, executionId));
      return ms / TURNS;
    };
    await inTurns(await newExecution());
    for (let r = 0; r < ROUNDS; r++) {
      const fresh = await newExecution();
      const times = { long: 0, fresh: 0 };
      for (const which of r % 2 === 0 ? (['long', 'fresh'] as const) : (['fresh', 'long'] as const)) {
        times[which] = await inTurns(which === 'long' ? long : fresh);
      }
      turns.push(times);
    }

    const ratio = (times: { long: number; fresh: number }[]) => median(times.map((t) => t.fresh / t.long));
    const ms = (times: { long: number; fresh: number }[], which: 'long' | 'fresh') =>
      times.map((t) => round(t[which], 1)).join('/');
    const results = { longEvents: events, buildSeconds: round(buildSeconds), cold, turns };
    const rows: Row[] = [
      {
        figure: `growth: step run on a ${events}-event execution vs a new one, instance just started (nothing kept)`,
        value: `${round(ratio(cold), 2)}x (ms long ${ms(cold, 'long')}, new ${ms(cold, 'fresh')})`,
        target: '>= 0.8x',
        met: ratio(cold) >= 0.8,
      },
      {
        figure: `growth: step runs on a ${events}-event execution vs a new one, two instances taking turns`,
        value: `${round(ratio(turns), 2)}x (ms a run: long ${ms(turns, 'long')}, new ${ms(turns, 'fresh')})`,
        target: '>= 0.8x',
        met: ratio(turns) >= 0.8,
      },
    ];
    return { rows, results };
  } finally {
    await Promise.all([one.stop(), other.stop()]);
  }
}

/**
 * Makes the stream `length` events long: the step runs' events it has (StepRunStarted, StepRunSucceeded)
 * appended again and again under new run and result ids, in large appends straight to the store, since
 * thousands of step runs through the server would take minutes. The read models are not written for the
 * copies: the step run path reads the execution from its stream, not from them.
 */
export async function lengthen(databaseUrl: string, streamId: string, length: number) {
  const sql = connect(databaseUrl, { max: 1, appSecret: BENCH_APP_SECRET });
  try {
    const store = new EventStore(sql);
    const { version, events } = await store.readStream(streamId);
    const runs = events.filter((e) => e.type === 'StepRunStarted' || e.type === 'StepRunSucceeded');
    let at = version;
    while (at < length) {
      const batch: { type: string; data: unknown }[] = [];
      while (batch.length < Math.min(COPY_BATCH, length - at)) {
        const runId = randomUUID();
        for (const event of runs.slice(0, 2)) {
          const data: Record<string, unknown> = { ...(event.data as Record<string, unknown>), runId };
          if (event.type === 'StepRunSucceeded') {
            const results = (data.results as Record<string, unknown>[]).map((r) => ({
              ...r,
              resultId: randomUUID(),
            }));
            data.results = results;
          }
          batch.push({ type: event.type, data });
        }
      }
      at = (await store.append(streamId, 'execution', at, batch)).nextExpectedVersion;
    }
    return at;
  } finally {
    await sql.end();
  }
}
