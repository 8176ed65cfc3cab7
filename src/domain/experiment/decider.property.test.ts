import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors';
import type { ExperimentCommand } from './commands';
import type { ExperimentConfig } from './config';
import { decider } from './decider';
import type { ExperimentEvent, ExperimentState, RunOutcome, RunStatus } from './events';
import { nextRunsToStart } from './queries';
import { AT_NOW, aScore, configOf, DATASET_ID, FLOW_ID, STEPS, startExperiment } from './testing';

/**
 * The experiment's invariants (stated on the decider), as properties: random sequences of commands, some
 * sensible and some not, are decided one after the other on the state their events fold to; whatever the
 * decider accepts or refuses, its stream keeps every invariant, and it refuses only with a DomainError.
 * The fixed seed runs every time; the random one prints its seed on failure.
 */

const OUTCOMES: RunOutcome[] = ['completed', 'failed', 'stopped'];
/** A few execution ids, shared by every command, so that commands name one another's executions. */
const EXECUTIONS = 6;

type Action =
  | { type: 'start'; run: number; execution: number | 'fresh'; reuse: boolean }
  | { type: 'next' }
  | { type: 'finish'; run: number; execution: number | 'its own'; outcome: RunOutcome }
  | { type: 'interrupt'; run: number; execution: number | 'its own' }
  | { type: 'wait'; run: number; execution: number | 'its own' }
  | { type: 'ready'; run: number; execution: number | 'its own' }
  | { type: 'score'; run: number; execution: number | 'its own'; round: 'current' | 'earlier' | 'later' }
  | { type: 'scoreAgain' }
  | { type: 'stop' }
  | { type: 'end' }
  | { type: 'promote' }
  | { type: 'startAgain' };

const run = fc.nat({ max: 40 });
const execution = fc.oneof(
  { weight: 1, arbitrary: fc.nat({ max: EXECUTIONS - 1 }) },
  { weight: 3, arbitrary: fc.constant('its own' as const) },
);
const actionArb: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      type: fc.constant('start' as const),
      run,
      execution: fc.oneof(fc.nat({ max: EXECUTIONS - 1 }), fc.constant('fresh' as const)),
      reuse: fc.boolean(),
    }),
  },
  { weight: 3, arbitrary: fc.record({ type: fc.constant('next' as const) }) },
  {
    weight: 5,
    arbitrary: fc.record({
      type: fc.constant('finish' as const),
      run,
      execution,
      outcome: fc.constantFrom(...OUTCOMES),
    }),
  },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('interrupt' as const), run, execution }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('wait' as const), run, execution }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('ready' as const), run, execution }) },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('score' as const),
      run,
      execution,
      round: fc.constantFrom('current' as const, 'earlier' as const, 'later' as const),
    }),
  },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('scoreAgain' as const) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('stop' as const) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('end' as const) }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('promote' as const) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('startAgain' as const) }) },
);

const scenarioArb = fc.record({
  items: fc.integer({ min: 1, max: 4 }),
  repetitions: fc.integer({ min: 1, max: 3 }),
  concurrency: fc.integer({ min: 1, max: 4 }),
  /** Which items' runs have a baseline execution to reuse. */
  baselineItems: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
  actions: fc.array(actionArb, { minLength: 1, maxLength: 80, size: 'max' }),
});
type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

function startOf(scenario: Scenario): { command: ExperimentCommand; config: ExperimentConfig } {
  const config = configOf({
    repetitions: scenario.repetitions,
    concurrency: scenario.concurrency,
    scorers: [{ type: 'equals' }],
  });
  const items = Array.from({ length: scenario.items }, (_, i) => ({ id: `item-${i}` }));
  const completedRuns = items.flatMap((item, i) =>
    scenario.baselineItems[i] ? [{ runKey: `${item.id}#1`, executionId: `base-${i}` }] : [],
  );
  const baseline = {
    experimentId: 'experiment-0',
    flowId: FLOW_ID,
    datasetId: DATASET_ID,
    steps: STEPS,
    config: configOf(),
    completedRuns,
    ended: true,
  };
  return { command: startExperiment({ config, items, baseline }), config };
}

const STARTED: RunStatus[] = ['running', 'waiting', 'ready', 'interrupted', 'finished'];
/** The runs each action mostly names: those it makes sense for. */
const AIMED_AT: Record<Action['type'], RunStatus[]> = {
  start: ['planned', 'interrupted', 'ready'],
  next: [],
  finish: ['running', 'waiting', 'ready', 'interrupted'],
  interrupt: ['running'],
  wait: ['running'],
  ready: ['waiting'],
  score: STARTED,
  scoreAgain: [],
  stop: [],
  end: [],
  promote: [],
  startAgain: [],
};

/** The command an action makes of the state (the runs it names by their place in the plan, or past it). */
function commandOf(action: Action, state: ExperimentState, fresh: () => string): ExperimentCommand[] {
  // Mostly a run the command makes sense for; else any run of the plan, or one it does not have.
  const aimed = state.runs.filter((each) => AIMED_AT[action.type].includes(each.status));
  const runAt = (i: number) =>
    aimed.length > 0 && i % 3 !== 0
      ? aimed[Math.floor(i / 3) % aimed.length]
      : state.runs[i % (state.runs.length + 1)];
  const keyAt = (i: number) => runAt(i)?.runKey ?? 'item-9#1';
  const executionOf = (i: number, which: number | 'its own' | 'fresh') =>
    which === 'fresh' ? fresh() : which === 'its own' ? (runAt(i)?.executionId ?? 'e-none') : `e${which}`;
  switch (action.type) {
    case 'start': {
      const reusedFrom = action.reuse ? (runAt(action.run)?.baselineExecutionId ?? 'base-x') : undefined;
      return [
        {
          type: 'StartRun',
          data: {
            runKey: keyAt(action.run),
            executionId: executionOf(action.run, action.execution),
            ...(reusedFrom === undefined ? {} : { reusedFrom }),
            instanceId: 1,
          },
        },
      ];
    }
    case 'next':
      // The runner's way: what nextRunsToStart names, each with a new execution (or its own, resumed).
      return nextRunsToStart(state).map((next) => ({
        type: 'StartRun',
        data: {
          runKey: next.runKey,
          executionId: next.resume ?? fresh(),
          ...(next.reuse ? { reusedFrom: next.reuse.executionId } : {}),
          instanceId: 1,
        },
      }));
    case 'finish':
      return [
        {
          type: 'FinishRun',
          data: {
            runKey: keyAt(action.run),
            executionId: executionOf(action.run, action.execution),
            outcome: action.outcome,
          },
        },
      ];
    case 'interrupt':
      return [
        {
          type: 'InterruptRun',
          data: { runKey: keyAt(action.run), executionId: executionOf(action.run, action.execution) },
        },
      ];
    case 'wait':
    case 'ready':
      return [
        {
          type: action.type === 'wait' ? 'SetRunWaiting' : 'SetRunReady',
          data: { runKey: keyAt(action.run), executionId: executionOf(action.run, action.execution) },
        },
      ];
    case 'score':
      return [
        {
          type: 'RecordScores',
          data: {
            scores: [aScore({ executionId: executionOf(action.run, action.execution) })],
            round: state.round + { current: 0, earlier: -1, later: 1 }[action.round],
          },
        },
      ];
    case 'scoreAgain':
      return [{ type: 'ScoreAgain', data: {} }];
    case 'stop':
      return [{ type: 'StopExperiment', data: {} }];
    case 'end':
      return [{ type: 'EndExperiment', data: { reason: 'starterCannotRun' } }];
    case 'promote':
      return [{ type: 'PromoteBaseline', data: {} }];
    case 'startAgain':
      return [startExperiment()];
  }
}

/**
 * What breaks an invariant in a history (empty: none), read from the events alone, apart from the decider's
 * state; and that the state the decider folds agrees with it.
 */
function broken(
  history: readonly ExperimentEvent[],
  config: ExperimentConfig,
  state: ExperimentState,
): string[] {
  const problems: string[] = [];
  const [first, ...rest] = history;
  if (first?.type !== 'ExperimentStarted') return ['the stream does not begin with ExperimentStarted'];
  const plan = new Set(first.data.runs.map((planned) => planned.runKey));
  if (plan.size !== first.data.runs.length) problems.push('a run planned twice');
  if (JSON.stringify(state.config) !== JSON.stringify(config)) problems.push('the settings changed');
  if (
    JSON.stringify(state.runs.map(({ runKey, itemId, repetition }) => ({ runKey, itemId, repetition }))) !==
    JSON.stringify(first.data.runs.map(({ runKey, itemId, repetition }) => ({ runKey, itemId, repetition })))
  )
    problems.push('the runs changed');
  const status = new Map<string, RunStatus>();
  const execution = new Map<string, string>();
  const ownerOf = new Map<string, string>();
  for (const key of plan) status.set(key, 'planned');
  let stopped = false;
  let completed = 0;
  for (const [i, event] of rest.entries()) {
    const at = `event ${i + 1} (${event.type})`;
    const inFlight = () => [...status.values()].filter((s) => s === 'running').length;
    switch (event.type) {
      case 'ExperimentStarted':
        problems.push(`${at}: started again`);
        break;
      case 'ExperimentRunStarted': {
        const { runKey, executionId } = event.data;
        const before = status.get(runKey);
        if (before === undefined) problems.push(`${at}: ${runKey} is not planned`);
        else if (before !== 'planned' && before !== 'interrupted' && before !== 'ready')
          problems.push(`${at}: ${runKey} started again while ${before}`);
        if (before === 'ready' && execution.get(runKey) !== executionId)
          problems.push(`${at}: ${runKey} went on as another execution`);
        if (stopped) problems.push(`${at}: started after the stop`);
        if (completed > 0) problems.push(`${at}: started after completion`);
        if ((ownerOf.get(executionId) ?? runKey) !== runKey)
          problems.push(`${at}: ${executionId} is ${ownerOf.get(executionId)}'s, started as ${runKey}`);
        ownerOf.set(executionId, runKey);
        status.set(runKey, 'running');
        execution.set(runKey, executionId);
        if (inFlight() > config.concurrency) problems.push(`${at}: ${inFlight()} runs in flight`);
        break;
      }
      case 'ExperimentRunWaiting':
        if (status.get(event.data.runKey) !== 'running') problems.push(`${at}: waits while not running`);
        status.set(event.data.runKey, 'waiting');
        break;
      case 'ExperimentRunReady':
        if (status.get(event.data.runKey) !== 'waiting') problems.push(`${at}: ready while not waiting`);
        status.set(event.data.runKey, 'ready');
        break;
      case 'ExperimentRunFinished':
        if (status.get(event.data.runKey) === 'finished') problems.push(`${at}: finished twice`);
        if (status.get(event.data.runKey) === 'planned') problems.push(`${at}: finished before it started`);
        if (execution.get(event.data.runKey) !== event.data.executionId)
          problems.push(`${at}: another execution`);
        status.set(event.data.runKey, 'finished');
        break;
      case 'ExperimentRunInterrupted':
        if (status.get(event.data.runKey) !== 'running')
          problems.push(`${at}: interrupted while not running`);
        status.set(event.data.runKey, 'interrupted');
        break;
      case 'ScoresRecorded': {
        const current = new Set(execution.values());
        for (const score of event.data.scores)
          if (!current.has(score.executionId)) problems.push(`${at}: a score of ${score.executionId}`);
        break;
      }
      case 'ExperimentStopped':
        stopped = true;
        break;
      case 'ExperimentCompleted':
        completed += 1;
        if ([...status.values()].some((s) => s !== 'finished')) problems.push(`${at}: completed too soon`);
        break;
      case 'BaselinePromoted':
        if (completed === 0) problems.push(`${at}: promoted before completion`);
        break;
      case 'ScoringRoundStarted':
        break;
    }
  }
  const allFinished = [...status.values()].every((s) => s === 'finished');
  if (allFinished !== (completed === 1) || completed > 1)
    problems.push(`all runs finished: ${allFinished}, completed ${completed} times`);
  const running = [...status.values()].filter((s) => s === 'running').length;
  if (state.running !== running)
    problems.push(`the state counts ${state.running} in flight, the events ${running}`);
  if (state.finished !== [...status.values()].filter((s) => s === 'finished').length)
    problems.push('the state counts another number of runs finished');
  return problems;
}

/** The event types the scenarios recorded, to check that they reach every one. */
const seen = new Set<ExperimentEvent['type']>();

function scenario(scenario: Scenario) {
  const { command: start, config } = startOf(scenario);
  const history: ExperimentEvent[] = decider.decide(start, decider.initialState(), AT_NOW);
  let state = history.reduce(decider.evolve, decider.initialState());
  let ids = 0;
  const fresh = () => `new-${ids++}`;
  for (const action of scenario.actions) {
    for (const command of commandOf(action, state, fresh)) {
      let events: ExperimentEvent[] = [];
      try {
        events = decider.decide(command, state, AT_NOW);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        // The runner's own way is never refused.
        if (action.type === 'next') throw new Error(`nextRunsToStart named a run refused: ${error.message}`);
      }
      history.push(...events);
      for (const event of events) seen.add(event.type);
      state = events.reduce(decider.evolve, state);
      const problems = broken(history, config, state);
      if (problems.length > 0) throw new Error(problems.join('\n'));
    }
  }
}

/**
 * A runner that only ever does what nextRunsToStart says, while runs finish or are interrupted at random,
 * completes the experiment: every run starts, and finishes, and no more run at once than the concurrency.
 */
function runnerCompletes({
  items,
  repetitions,
  concurrency,
  picks,
}: {
  items: number;
  repetitions: number;
  concurrency: number;
  picks: { run: number; act: 'finish' | 'interrupt' | 'wait' | 'ready' }[];
}) {
  const { command } = startOf({
    items,
    repetitions,
    concurrency,
    baselineItems: [true, false, true, false],
    actions: [],
  });
  let state = decider
    .decide(command, decider.initialState(), AT_NOW)
    .reduce(decider.evolve, decider.initialState());
  let ids = 0;
  const apply = (next: ExperimentCommand) => {
    state = decider.decide(next, state, AT_NOW).reduce(decider.evolve, state);
  };
  let turn = 0;
  // Each turn ends a run, or (at most as often as there are picks) interrupts one, or lets one wait for
  // people or go on: it ends.
  for (let guard = 0; guard < 1_000 && state.completedAt === null; guard++) {
    for (const next of nextRunsToStart(state))
      apply({
        type: 'StartRun',
        data: {
          runKey: next.runKey,
          executionId: next.resume ?? `e${ids++}`,
          ...(next.reuse ? { reusedFrom: next.reuse.executionId } : {}),
          instanceId: 1,
        },
      });
    const inFlight = state.runs.filter((each) => each.status === 'running');
    const waiting = state.runs.filter((each) => each.status === 'waiting');
    expect(inFlight.length).toBeLessThanOrEqual(concurrency);
    expect(inFlight.length + waiting.length).toBeGreaterThan(0);
    const pick = picks[turn++] ?? { run: 0, act: 'finish' };
    // People decide a waiting run's reviews at some time: at the latest when nothing else is in flight.
    const act =
      inFlight.length === 0 ? 'ready' : waiting.length === 0 && pick.act === 'ready' ? 'finish' : pick.act;
    const from = act === 'ready' ? waiting : inFlight;
    const chosen = from[pick.run % from.length]!;
    const data = { runKey: chosen.runKey, executionId: chosen.executionId! };
    apply(
      act === 'ready'
        ? { type: 'SetRunReady', data }
        : act === 'wait'
          ? { type: 'SetRunWaiting', data }
          : act === 'interrupt'
            ? { type: 'InterruptRun', data }
            : { type: 'FinishRun', data: { ...data, outcome: 'completed' } },
    );
  }
  expect(state.completedAt).not.toBeNull();
  expect(state.runs.every((each) => each.status === 'finished')).toBe(true);
}

const runnerArb = fc.record({
  items: fc.integer({ min: 1, max: 6 }),
  repetitions: fc.integer({ min: 1, max: 3 }),
  concurrency: fc.integer({ min: 1, max: 5 }),
  picks: fc.array(
    fc.record({
      run: fc.nat(),
      act: fc.constantFrom('finish' as const, 'interrupt' as const, 'wait' as const, 'ready' as const),
    }),
    { maxLength: 40, size: 'max' },
  ),
});

describe("an experiment's invariants", () => {
  it('hold after every command of random sequences (fixed seed)', () => {
    seen.clear();
    fc.assert(fc.property(scenarioArb, scenario), { seed: 20261129, numRuns: 300 });
    // Every event is reached, so every rule is put to the test.
    expect([...seen].sort()).toEqual(
      [
        'BaselinePromoted',
        'ExperimentCompleted',
        'ExperimentRunFinished',
        'ExperimentRunInterrupted',
        'ExperimentRunReady',
        'ExperimentRunStarted',
        'ExperimentRunWaiting',
        'ExperimentStopped',
        'ScoresRecorded',
        'ScoringRoundStarted',
      ].sort(),
    );
  });

  it('hold after every command of random sequences (a new seed each run, printed on failure)', () => {
    fc.assert(fc.property(scenarioArb, scenario), { numRuns: 100 });
  });

  it('let a runner that follows nextRunsToStart complete the experiment', () => {
    fc.assert(fc.property(runnerArb, runnerCompletes), { seed: 20261129, numRuns: 200 });
    fc.assert(fc.property(runnerArb, runnerCompletes), { numRuns: 50 });
  });
});
