import type { StepSnapshot } from '../flow';
import type { ExperimentState, RunState } from './events';
import { type BaselineFacts, reusedStepIds } from './plan';
import type { Score } from './scorer-definitions';

/** What the runner starts a run as, all decided here so that the runner has no rule of its own. */
export interface RunToStart {
  runKey: string;
  itemId: string;
  repetition: number;
  /**
   * The baseline execution to take the steps before `fromStepId` from (an execution started with
   * StartExecutionFrom, given `StartRun.reusedFrom`), when it has an approved result of each (canReuseFrom);
   * else, and when null, a new execution of every step.
   */
  reuse: { executionId: string; fromStepId: string; stepIds: string[] } | null;
  /**
   * The execution the run had: a ready run goes on with it; an interrupted run goes on with it when it
   * exists, else starts a new one. null: a new run.
   */
  resume: string | null;
}

export type ExperimentStatus = 'none' | 'running' | 'stopping' | 'stopped' | 'completed';

/**
 * An experiment as its screens show it: `running` until stopped or completed, `stopping` while a stopped
 * one still has open runs, `stopped` once it has none (whatever its runs' outcomes), `completed` once every
 * run finished without a stop.
 */
export function experimentStatus(state: ExperimentState): ExperimentStatus {
  if (state.experimentId === null) return 'none';
  // Stopped it stays, even when the stop ended its last runs (and so every run finished).
  if (state.stopped) return openRuns(state).length > 0 ? 'stopping' : 'stopped';
  if (state.completedAt !== null) return 'completed';
  return 'running';
}

/**
 * The runs started and not finished: in flight, waiting for people, ready to go on, or interrupted. Once the
 * experiment is stopped, the runner stops each one's execution and finishes it (outcome `stopped`).
 */
export const openRuns = (state: ExperimentState): RunState[] =>
  state.runs.filter((run) => run.status !== 'planned' && run.status !== 'finished');

/** Whether nothing more happens to the experiment's runs: it completed, or it stopped and has no open run. */
export const hasEnded = (state: ExperimentState) => {
  const status = experimentStatus(state);
  return status === 'completed' || status === 'stopped';
};

/**
 * What a new experiment compared with this one needs of it (planReuse), given its flow version's steps: its
 * runs that completed, with their executions, and whether it has ended.
 */
export function baselineFactsOf(
  state: ExperimentState,
  steps: readonly StepSnapshot[],
): BaselineFacts & { ended: boolean } {
  return {
    experimentId: state.experimentId ?? '',
    flowId: state.flowId,
    datasetId: state.datasetId,
    steps,
    config: { models: state.config?.models ?? {} },
    completedRuns: state.runs.flatMap((run) =>
      run.outcome === 'completed' && run.executionId !== null
        ? [{ runKey: run.runKey, executionId: run.executionId }]
        : [],
    ),
    ended: hasEnded(state),
  };
}

/**
 * The runs to start now, in order, as many as the concurrency leaves room for: first those whose people
 * decided (they are furthest on), then the interrupted ones (they began earliest), then those not started,
 * each in the plan's order. None once the experiment is stopped or completed. Every one of them is a
 * StartRun the decider accepts, on its `resume` execution or a fresh one.
 */
export function nextRunsToStart(state: ExperimentState): RunToStart[] {
  if (state.config === null || state.stopped || state.completedAt !== null) return [];
  const room = state.config.concurrency - state.running;
  if (room <= 0) return [];
  const waiting = [
    ...state.runs.filter((run) => run.status === 'ready'),
    ...state.runs.filter((run) => run.status === 'interrupted'),
    ...state.runs.filter((run) => run.status === 'planned'),
  ];
  return waiting.slice(0, room).map((run) => runToStart(state, run));
}

/** The runs in flight: after a restart, the runner drives on those whose execution is still open. */
export const runsInFlight = (state: ExperimentState): RunState[] =>
  state.runs.filter((run) => run.status === 'running');

/**
 * Whether a score recorded in `round` still counts: a scorer's (code or judge) only when no later round
 * scored that scorer again; a person's and a review's always.
 */
export const scoreCounts = (
  state: Pick<ExperimentState, 'rescoredIn'>,
  round: number,
  score: Pick<Score, 'name' | 'source'>,
): boolean =>
  (score.source !== 'code' && score.source !== 'judge') || round >= (state.rescoredIn[score.name] ?? 0);

/**
 * The runs in flight driven by server instances that have died (see src/domain/interrupted-runs.ts): each to
 * be interrupted (InterruptRun), and so started again. A run that waits for people has no driver to lose.
 */
export const runsOfGoneInstances = (state: ExperimentState, goneInstances: readonly number[]): RunState[] =>
  state.runs.filter(
    (run) => run.status === 'running' && run.instanceId !== null && goneInstances.includes(run.instanceId),
  );

function runToStart(state: ExperimentState, run: RunState): RunToStart {
  const { reuseBefore } = state;
  const reuse =
    reuseBefore !== null && run.baselineExecutionId !== undefined
      ? {
          executionId: run.baselineExecutionId,
          fromStepId: reuseBefore,
          stepIds: reusedStepIds(state.stepIds, reuseBefore),
        }
      : null;
  return {
    runKey: run.runKey,
    itemId: run.itemId,
    repetition: run.repetition,
    reuse,
    resume: run.status === 'planned' ? null : run.executionId,
  };
}
