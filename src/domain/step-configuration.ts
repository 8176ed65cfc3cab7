import { MAX_LOOP_ITERATIONS, type Step } from './flow';

/** A loop runs 1 to 100 times; anything else (not a whole number, or outside 1-100) means 1. */
export function loopIterationsFrom(input: string): number {
  const n = Number(input.trim());
  if (input.trim() === '' || !Number.isInteger(n) || n < 1 || n > MAX_LOOP_ITERATIONS) return 1;
  return n;
}

/** A step takes input only from the steps before it, in flow order. */
export function inputSourceOptions<T extends Pick<Step, 'id' | 'order'>>(
  steps: readonly T[],
  step: Pick<Step, 'id' | 'order'>,
): T[] {
  return steps.filter((s) => s.order < step.order && s.id !== step.id).toSorted((a, b) => a.order - b.order);
}
