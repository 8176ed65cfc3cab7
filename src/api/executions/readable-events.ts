import type { ExecutionEvent } from '../../domain/execution/types';
import type { RecordedEvent } from '../../eventstore';
import { toExecutionEvent } from '../../projections/project-execution-events';
import { executionEventSchema } from './history-event-schemas';

/**
 * Whether a stored event is one the domain can read: its type is an execution event's and its data has that
 * type's shape. An event rewritten in the database into anything else (a field missing or of the wrong type,
 * an unknown type) is not: the history shows it raw, and the folds leave it out.
 */
export const isReadable = (recorded: Pick<RecordedEvent, 'type' | 'data'>): boolean =>
  executionEventSchema.safeParse({ type: recorded.type, data: recorded.data }).success;

/**
 * The events the domain can fold, in order: an unreadable one is skipped, so the execution after it is the
 * execution before it (what it did is not known).
 */
export const readableExecutionEvents = (events: readonly RecordedEvent[]): ExecutionEvent[] =>
  events.filter(isReadable).map(toExecutionEvent);
