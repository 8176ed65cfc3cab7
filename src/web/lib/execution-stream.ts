import { evolve } from '../../domain/execution';
import type { ExecutionEvent, ExecutionState } from '../../domain/execution/types';
import { newerView } from '../../domain/live-updates';

/**
 * An execution as the API returns it: the domain state plus the stream position it reflects. The web keeps
 * the domain's type here rather than the document's: it folds pushed events onto it with the server's own
 * `evolve`. Every call that reads one assigns the documented answer to this type, so tsc still checks the
 * two agree.
 */
export type Execution = ExecutionState & { version: number };

export type StreamOutcome =
  /** The event was the next one: the state moved on. */
  | { kind: 'applied'; execution: Execution }
  /** Already reflected (a replay, or a poll got there first): nothing to do. */
  | { kind: 'duplicate' }
  /** Something in between was missed: read again from the last applied position. */
  | { kind: 'gap'; after: number };

/**
 * Applies one pushed event to the cached execution. The cached `version` is the only cursor, so pushed
 * events and polled snapshots can never disagree about what has been applied.
 */
export function applyStreamEvent(
  execution: Execution,
  position: number,
  event: ExecutionEvent,
): StreamOutcome {
  if (position <= execution.version) return { kind: 'duplicate' };
  if (position > execution.version + 1) return { kind: 'gap', after: execution.version };
  return { kind: 'applied', execution: { ...evolve(execution, event), version: position } };
}

/** A polled snapshot replaces the cache only when it is newer, so a slow poll cannot undo pushed events. */
export const newerExecution = (current: Execution | undefined | null, incoming: Execution): Execution =>
  newerView(current, incoming);

/** Events after which a run's streamed tokens are no longer wanted: the run ended or the work restarted. */
export function endedRunIds(event: ExecutionEvent): string[] | 'all' {
  switch (event.type) {
    case 'StepRunSucceeded':
    case 'StepRunFailed':
      return [event.data.runId];
    case 'ExecutionStopped':
    case 'ExecutionReset':
      return 'all';
    default:
      return [];
  }
}
