import type { ExperimentState, RunState } from './events';
import { reusedStepIds } from './plan';

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
 * An experiment as its screens show it: `running` until stopped or completed, `stopping` while runs it
 * stopped are still in flight, `stopped` once none is, `completed` once every run finished.
 */
export function experimentStatus(state: ExperimentState): ExperimentStatus {
  if (state.experimentId === null) return 'none';
  if (state.completedAt !== null) return 'completed';
  if (state.stopped) return state.running > 0 ? 'stopping' : 'stopped';
  return 'running';
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
