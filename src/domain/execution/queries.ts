import type {
  CacheItem,
  ExecutionState,
  QueueItem,
  ShownExecutionStatus,
  StepResult,
  StepRun,
} from './types';

/** Progress: currentStep / steps x 100, never above 100. */
export function progress(state: ExecutionState): number {
  if (state.steps.length === 0) return 0;
  return Math.min(100, (state.currentStep / state.steps.length) * 100);
}

/** "The next step is the first queue item not completed." */
export function nextQueueItem(state: ExecutionState): QueueItem | null {
  return state.executionQueue.find((item) => !item.isCompleted) ?? null;
}

/** The first unit of work still to do, of the whole execution or of one step. */
export function firstPendingCacheItem(state: ExecutionState, stepId?: string): CacheItem | null {
  return (
    state.executionCache.find(
      (item) => item.status === 'pending' && (stepId === undefined || item.stepId === stepId),
    ) ?? null
  );
}

/** A step's results, every version, oldest first. */
export function resultsOfStep(state: ExecutionState, stepId: string): StepResult[] {
  return state.results.filter((result) => result.stepId === stepId);
}

/**
 * Where a run is in the execution's runs: they are added as they start and an event is almost always about
 * one of the latest, so they are looked through from the end (a long execution has thousands). -1: none.
 */
export const runIndexOf = (runs: readonly StepRun[], runId: string) =>
  runs.findLastIndex((run) => run.runId === runId);

/** A model call in progress, of the whole execution or of one step. */
export function runningRun(state: ExecutionState, stepId?: string): StepRun | null {
  return (
    state.runs.find((run) => run.status === 'running' && (stepId === undefined || run.stepId === stepId)) ??
    null
  );
}

/**
 * The status an execution shows, in its own view and in every list: an open execution with no step run in
 * progress (left by the user, or whose run a crash ended) waits for the user rather than runs.
 */
export function shownStatus(state: Pick<ExecutionState, 'status' | 'runs'>): ShownExecutionStatus {
  if (state.status !== 'running') return state.status;
  return state.runs.some((run) => run.status === 'running') ? 'running' : 'waiting';
}
