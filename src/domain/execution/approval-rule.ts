import { asksAnotherPerson, type StepReview } from '../step-review';
import type { ExecutionState, Review, StepResult } from './types';

/**
 * Who approves a result, in one place: the decider refuses by it, the web app offers its checkbox by it.
 *
 * A result whose step's rule asks another person, or that a review was asked for, is approved only by a
 * review's decision, before that decision and after it: the runner can neither approve, unapprove nor
 * re-approve it (unless the rule lets the runner approve their own step); nor can they a copy of it a rerun
 * reused, whose edit asks the step's reviewers again. An execution outside any workspace
 * has nobody else to ask: its runner approves as always, whatever rule its flow has now.
 */

/** The review that decides the result now: the latest one asked for it that was not withdrawn. */
export function reviewOfResult(state: Pick<ExecutionState, 'reviews'>, resultId: string): Review | undefined {
  return state.reviews.findLast((r) => r.status !== 'withdrawn' && r.resultIds.includes(resultId));
}

/**
 * Whether a review's rejection binds the result: the latest review of it rejected it, and nothing changed
 * since (an edit asks that review again, a new run gives new results). Only a new review of a changed text
 * approves it; asking again for the same text is refused, so a rejection is never overruled by asking
 * someone else.
 */
export const rejectedAsItIs = (state: Pick<ExecutionState, 'reviews'>, resultId: string): boolean =>
  reviewOfResult(state, resultId)?.status === 'rejected';

/** The step's rule when it asks another person and the execution has a workspace to ask in; otherwise null. */
export function ruleOfStep(
  state: Pick<ExecutionState, 'steps' | 'workspaceId'>,
  stepId: string,
): StepReview | null {
  if (state.workspaceId === null) return null;
  const rule = state.steps.find((s) => s.id === stepId)?.review;
  return asksAnotherPerson(rule) ? rule : null;
}

/** How a result's approval is decided: by the runner, or by a review (the one asked, or the step's rule). */
export type ApprovalOwner =
  | { by: 'runner' }
  | { by: 'review'; review: Review; selfApproval: boolean }
  | { by: 'rule'; rule: StepReview; selfApproval: boolean };

export function approvalOwnerOf(
  state: Pick<ExecutionState, 'reviews' | 'steps' | 'workspaceId'>,
  result: Pick<StepResult, 'id' | 'stepId' | 'choiceIndex' | 'origin'>,
): ApprovalOwner {
  // The model's pick of a choice is the path taken. A reused result comes approved from where it was
  // decided, but stays under its step's rule: a copy of what a reviewer approved is not the runner's.
  if (result.choiceIndex !== null) return { by: 'runner' };
  const review = reviewOfResult(state, result.id);
  if (review) return { by: 'review', review, selfApproval: review.selfApproval };
  const rule = ruleOfStep(state, result.stepId);
  if (rule) return { by: 'rule', rule, selfApproval: rule.selfApproval };
  return { by: 'runner' };
}

/**
 * Whether the result may be approved or unapproved directly (its checkbox, `PUT /api/step-results/:id
 * {approved}`): where the runner approves, and under a rule that lets the runner approve their own step
 * while no review was asked for it. A result a review was asked for is decided by that review only: a
 * rejected one is approved by a new review, never by a tick.
 */
export function mayApproveDirectly(
  state: Pick<ExecutionState, 'reviews' | 'steps' | 'workspaceId' | 'results'>,
  resultId: string,
): boolean {
  const result = state.results.findLast((r) => r.id === resultId);
  if (!result) return false;
  const owner = approvalOwnerOf(state, result);
  return owner.by === 'runner' || (owner.by === 'rule' && owner.selfApproval);
}

/** Whether only a review approves the result: the web app offers no checkbox then. */
export const approvalBelongsToReview = (
  state: Pick<ExecutionState, 'reviews' | 'steps' | 'workspaceId' | 'results'>,
  resultId: string,
): boolean => !mayApproveDirectly(state, resultId);
