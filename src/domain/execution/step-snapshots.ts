import type { StepSnapshot } from '../flow';
import { sameReview } from '../step-review';

/**
 * Only the snapshot fields travel in events: callers may hand over full step rows, and an event must not
 * change shape with whatever the caller's query selected.
 */
export function snapshotOf(step: StepSnapshot): StepSnapshot {
  return {
    id: step.id,
    order: step.order,
    name: step.name,
    systemPrompt: step.systemPrompt,
    outputMode: step.outputMode,
    inputSources: [...step.inputSources],
    choices: [...step.choices],
    loopTargetStepId: step.loopTargetStepId,
    maxLoopIterations: step.maxLoopIterations,
    requiresUserInput: step.requiresUserInput,
    // Only a step with a review rule carries one: the snapshots of other steps read as they always have.
    ...(step.review ? { review: step.review } : {}),
    // Likewise a step that names its model.
    ...(step.model ? { model: step.model } : {}),
  };
}

/** Steps in execution order; the sort is stable, so steps sharing an order keep the flow's order. */
export function inExecutionOrder(steps: readonly StepSnapshot[]): StepSnapshot[] {
  return [...steps].sort((a, b) => a.order - b.order);
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((value, i) => value === b[i]);

/**
 * Field by field rather than through JSON: steps read back from jsonb come with their keys reordered,
 * and that must not count as a change.
 */
export function sameSteps(a: readonly StepSnapshot[], b: readonly StepSnapshot[]): boolean {
  return (
    a.length === b.length &&
    a.every((step, i) => {
      const other = b[i]!;
      return (
        step.id === other.id &&
        step.order === other.order &&
        step.name === other.name &&
        step.systemPrompt === other.systemPrompt &&
        step.outputMode === other.outputMode &&
        sameList(step.inputSources, other.inputSources) &&
        sameList(step.choices, other.choices) &&
        step.loopTargetStepId === other.loopTargetStepId &&
        step.maxLoopIterations === other.maxLoopIterations &&
        step.requiresUserInput === other.requiresUserInput &&
        sameReview(step.review, other.review) &&
        (step.model ?? null) === (other.model ?? null)
      );
    })
  );
}
