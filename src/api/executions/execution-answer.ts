import type { StepResult } from '../../domain/execution/types';
import type { LoadedExecution } from './execution-commands';
import type { ExecutionView } from './execution-view';

/**
 * The execution a command just produced, as GET /api/executions/:id would read it back, built from the
 * command's own state instead of a query. The read models are that state projected in the command's
 * transaction: the executions row holds every field but the results, and step_results holds the results,
 * which the view orders by step, time and place among the results of their run.
 */
export function answerOf({ state, version }: LoadedExecution): ExecutionView {
  const placeInRun = new Map<StepResult, number>();
  const counted = new Map<string, number>();
  for (const result of state.results) {
    // A run's results (or one re-run's reused ones) share the run id and the time they were recorded.
    const key = `${result.runId} ${result.createdAt}`;
    const place = counted.get(key) ?? 0;
    placeInRun.set(result, place);
    counted.set(key, place + 1);
  }
  const results = [...state.results].sort(
    (a, b) =>
      a.stepOrder - b.stepOrder ||
      Date.parse(a.createdAt) - Date.parse(b.createdAt) ||
      placeInRun.get(a)! - placeInRun.get(b)!,
  );
  return { ...state, results, version };
}
