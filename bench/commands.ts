import {
  type BenchFlow,
  type CommandTarget,
  call,
  percentile,
  type Runnable,
  round,
  STEP_RUN_HEADERS,
  startLoad,
  stepRunLoad,
} from './load';
import type { PostgresProxy } from './postgres-proxy';

// The command figures: starts and step runs measured apart, on the server or on the floor routes.

const WARM_UP_SECONDS = 0.5;
/**
 * The server's and the floor's loads take turns in this many rounds, so a change in the machine's load during
 * the run (other processes) weighs on both alike instead of skewing the ratio.
 */
export const ROUNDS = 3;

/** One round's commands/s and server CPU ms a command (null: not readable). */
export interface RoundFigures {
  perSecond: number;
  cpuMs: number | null;
}

export interface CommandFigures {
  perSecond: number;
  count: number;
  p50: number;
  p99: number;
  /** Server CPU ms per command, when the server's CPU time can be read. */
  cpuMs: number | null;
  /** Each round's own figures, in the order the rounds ran: ratios are taken round by round. */
  rounds: RoundFigures[];
}

/** CPU time of the server process (user + system), in ms; null: not readable for this target. */
export type CpuClock = (() => Promise<number>) | null;

/** What commands are sent to, with one flow per client, and its CPU clock if it has one. */
export interface Contender {
  target: CommandTarget;
  flows: BenchFlow[];
  cpu: CpuClock;
}

/** Latencies, time and CPU of one kind of command over the rounds. */
class Tally {
  private readonly latencies: number[] = [];
  private seconds = 0;
  private cpuMs: number | null = null;
  private readonly rounds: RoundFigures[] = [];

  add(load: { latencies: number[]; seconds: number }, cpuMs: number | null) {
    this.latencies.push(...load.latencies);
    this.seconds += load.seconds;
    if (cpuMs !== null) this.cpuMs = (this.cpuMs ?? 0) + cpuMs;
    const count = load.latencies.length;
    this.rounds.push({
      perSecond: round(count / load.seconds),
      cpuMs: cpuMs === null ? null : round(cpuMs / count, 3),
    });
  }

  figures(): CommandFigures {
    const sorted = [...this.latencies].sort((x, y) => x - y);
    return {
      perSecond: round(sorted.length / this.seconds),
      count: sorted.length,
      p50: round(percentile(sorted, 50)),
      p99: round(percentile(sorted, 99)),
      cpuMs: this.cpuMs === null ? null : round(this.cpuMs / sorted.length, 2),
      rounds: this.rounds,
    };
  }
}

/**
 * Loads of only starts, then loads of only step runs on the executions those started, each contender's in
 * turn for `seconds` in all (over three rounds, which goes first alternating; each round's figures kept), one
 * client per flow; after a short warm-up of both, so every connection has its statements prepared.
 */
export async function measureCommands(contenders: Contender[], seconds: number) {
  const runnable: Runnable[][] = [];
  for (const { target, flows } of contenders) {
    const warm = await startLoad(target, flows, WARM_UP_SECONDS);
    await stepRunLoad(target, warm.started, flows.length, WARM_UP_SECONDS);
    runnable.push([]);
  }
  const starts = contenders.map(() => new Tally());
  for (let n = 0; n < ROUNDS; n++) {
    for (const [i, { target, flows, cpu }] of inTurn(contenders, n)) {
      const [load, cpuMs] = await measuringCpu(cpu, () => startLoad(target, flows, seconds / ROUNDS));
      starts[i]!.add(load, cpuMs);
      runnable[i]!.push(...load.started);
    }
  }
  // Twice what the starts made: a step run may well be quicker than a start.
  for (const [i, { target, flows }] of contenders.entries()) {
    runnable[i]!.push(...(await startMany(target, flows, runnable[i]!.length)));
  }
  const stepRuns = contenders.map(() => new Tally());
  const ranOut = contenders.map(() => false);
  for (let n = 0; n < ROUNDS; n++) {
    for (const [i, { target, flows, cpu }] of inTurn(contenders, n)) {
      const [load, cpuMs] = await measuringCpu(cpu, () =>
        stepRunLoad(target, runnable[i]!, flows.length, seconds / ROUNDS),
      );
      stepRuns[i]!.add(load, cpuMs);
      ranOut[i] ||= load.ranOut;
    }
  }
  return contenders.map((_, i) => ({
    starts: starts[i]!.figures(),
    stepRuns: stepRuns[i]!.figures(),
    /** The step runs used up every execution the starts made before their time was over. */
    ranOut: ranOut[i]!,
  }));
}

/** The contenders with their indexes, in the order they go in round `n`: the first goes first every other round. */
export function inTurn<T>(contenders: T[], n: number): [number, T][] {
  const entries = [...contenders.entries()];
  return n % 2 === 0 ? entries : entries.reverse();
}

/** What `work` returns, and the server CPU ms it took (null when not readable). */
async function measuringCpu<T>(cpu: CpuClock, work: () => Promise<T>): Promise<[T, number | null]> {
  if (!cpu) return [await work(), null];
  const before = await cpu();
  const result = await work();
  return [result, (await cpu()) - before];
}

const ROUND_TRIP_COMMANDS = 50;
/** Time for a command's trailing reads (the log tailers catching up) to reach the count. */
const SETTLE_MS = 200;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Round trips to PostgreSQL per start and per step run: commands one after another through `proxy`, less
 * what the server's timers (tailer polls, sweeps) send in as long a time with no command.
 */
export async function measureRoundTrips(target: CommandTarget, flow: BenchFlow, proxy: PostgresProxy) {
  await runOneByOne(target, await startOneByOne(target, flow, 20));
  let started: Runnable[] = [];
  const starts = await roundTripsOf(proxy, async () => {
    started = await startOneByOne(target, flow, ROUND_TRIP_COMMANDS);
  });
  const stepRuns = await roundTripsOf(proxy, () => runOneByOne(target, started));
  return {
    commands: ROUND_TRIP_COMMANDS,
    perStart: round(starts / ROUND_TRIP_COMMANDS, 1),
    perStepRun: round(stepRuns / ROUND_TRIP_COMMANDS, 1),
  };
}

async function roundTripsOf(proxy: PostgresProxy, commands: () => Promise<void>) {
  const before = proxy.roundTrips();
  const started = performance.now();
  await commands();
  await sleep(SETTLE_MS);
  const busy = proxy.roundTrips() - before;
  const elapsed = performance.now() - started;
  const quietBefore = proxy.roundTrips();
  await sleep(elapsed);
  return busy - (proxy.roundTrips() - quietBefore);
}

/** `count` executions started, each client starting its flow's share one after another. */
async function startMany(target: CommandTarget, flows: BenchFlow[], count: number) {
  const each = Math.ceil(count / flows.length);
  return (await Promise.all(flows.map((flow) => startOneByOne(target, flow, each)))).flat();
}

async function startOneByOne(target: CommandTarget, { flow, step }: BenchFlow, count: number) {
  const started: Runnable[] = [];
  for (let i = 0; i < count; i++) {
    const execution = await call(
      target.base,
      target.cookie,
      'POST',
      `${target.prefix}/flows/${flow.id}/execute`,
    );
    started.push({ executionId: execution.id, stepId: step.id });
  }
  return started;
}

async function runOneByOne(target: CommandTarget, runnables: Runnable[]) {
  for (const { executionId, stepId } of runnables) {
    await call(
      target.base,
      target.cookie,
      'POST',
      `${target.prefix}/executions/${executionId}/steps/${stepId}/execute`,
      { userInput: '' },
      STEP_RUN_HEADERS,
    );
  }
}

/** `count` flows on the floor routes, one per client as the server's. */
export function createFloorFlows(base: string, count: number): Promise<BenchFlow[]> {
  return Promise.all(Array.from({ length: count }, () => call(base, '', 'POST', '/floor/flows')));
}
