import { asksAnotherPerson } from '../step-review';
import type { ExecutionState, Review } from './types';

/**
 * The review a result's approval belongs to: the latest one that holds it and was not withdrawn (pending,
 * approved, rejected or expired), if any.
 */
export const reviewOfResult = (
  state: Pick<ExecutionState, 'reviews'>,
  resultId: string,
): Review | undefined =>
  state.reviews
    .filter((review) => review.status !== 'withdrawn' && review.resultIds.includes(resultId))
    .at(-1);

/**
 * Whether only a review approves the result, never the result's own Approve: it is held by a review that was
 * not withdrawn, or its step (as the execution started with it) asks another person than the runner and does
 * not allow self-approval.
 */
export function approvalBelongsToReview(
  state: Pick<ExecutionState, 'reviews' | 'results' | 'steps'>,
  resultId: string,
): boolean {
  if (reviewOfResult(state, resultId)) return true;
  const result = state.results.find((each) => each.id === resultId);
  const rule = result ? state.steps.find((step) => step.id === result.stepId)?.review : undefined;
  return asksAnotherPerson(rule) && !rule.selfApproval;
}
