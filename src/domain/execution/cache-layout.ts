import type { StepSnapshot } from '../flow';
import type { CacheItem, QueueItem } from './types';

/**
 * The loopIteration of work that is not part of a loop. Loop iterations count from 1, so 0 can never be
 * mistaken for one of them.
 */
export const NOT_A_LOOP = 0;

/** One unit of work of an execution: a step, or one iteration of a loop step. */
export interface CacheSlot {
  stepId: string;
  loopIteration: number;
}

export const isLoopStep = (step: StepSnapshot) => step.outputMode === 'loop';

/** The units of work of these steps, in execution order: a loop step has one per iteration 1..max. */
export function cacheSlotsOf(steps: readonly StepSnapshot[]): CacheSlot[] {
  return steps.flatMap((step) => {
    if (!isLoopStep(step)) return [{ stepId: step.id, loopIteration: NOT_A_LOOP }];
    const iterations = Math.max(1, step.maxLoopIterations);
    return Array.from({ length: iterations }, (_, i) => ({ stepId: step.id, loopIteration: i + 1 }));
  });
}

export const isSameSlot = (a: CacheSlot, b: CacheSlot) =>
  a.stepId === b.stepId && a.loopIteration === b.loopIteration;

/**
 * Fresh pending items for these slots. Ids come from the event; the fallback only keeps a malformed
 * event (too few ids) replayable instead of breaking every read of the stream.
 */
export function pendingItemsFor(slots: readonly CacheSlot[], ids: readonly string[]): CacheItem[] {
  return slots.map((slot, i) => ({
    id: ids[i] ?? `${slot.stepId}:${slot.loopIteration}`,
    stepId: slot.stepId,
    status: 'pending',
    loopIteration: slot.loopIteration,
  }));
}

/**
 * The queue is derived from the cache so the two can never disagree: a step is completed when all of its
 * cache items are, and a loop step's queue item names the iteration it is at (its first pending one, or
 * its last once all are done).
 */
export function queueOf(steps: readonly StepSnapshot[], cache: readonly CacheItem[]): QueueItem[] {
  return steps.map((step) => {
    const items = cache.filter((item) => item.stepId === step.id);
    const current = items.find((item) => item.status === 'pending') ?? items.at(-1);
    return {
      stepId: step.id,
      isCompleted: items.every((item) => item.status === 'completed'),
      loopIteration: current?.loopIteration ?? NOT_A_LOOP,
    };
  });
}

/**
 * The order of the first step not completed. Once all are done it is one past the last step; orders with
 * gaps (1, 2, 5) still give a number above every order, so "completed when currentStep > order" holds.
 */
export function currentStepOf(steps: readonly StepSnapshot[], queue: readonly QueueItem[]): number {
  const next = queue.find((item) => !item.isCompleted);
  const step = next && steps.find((s) => s.id === next.stepId);
  if (step) return step.order;
  const lastOrder = steps.reduce((max, s) => Math.max(max, s.order), 0);
  return Math.max(steps.length, lastOrder) + 1;
}
