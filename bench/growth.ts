import { call, createFlows, type Row, round, signUp } from './load';
import { serverEnv, startProcess } from './server-process';

// Growth: does a step run on a long execution cost what one on a new execution costs, on an instance that
// keeps no state of it (after a restart, or another instance wrote last)? Snapshots are what makes it so.

/** Events on the long execution: about two a step run. */
const LONG_EVENTS = 10_000;
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
      call(on, cookie, 'POST', `/api/executions/${executionId}/steps/${flow!.step.id}/execute`, {});
    const newExecution = async () =>
      (await call(base, cookie, 'POST', `/api/flows/${flow!.flow.id}/execute`)).id;

    const long = await newExecution();
    const building = performance.now();
    let events = 1;
    while (events < LONG_EVENTS) {
      for (let i = 0; i < 250; i++) await run(base, long);
      events = (await call(base, cookie, 'GET', `/api/executions/${long}/state`)).version;
    }
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
