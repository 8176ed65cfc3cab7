import type { ExecutionState, Review, StepResult } from '../execution/types';
import type { Score } from './scorer-definitions';
import { wordEditDistance } from './word-edit-distance';

/** The names of the scores a step's review gives. */
export const REVIEW_SCORE_NAMES = {
  approved: 'approved',
  edited: 'edited',
  editDistance: 'edit_distance',
  timeToDecide: 'time_to_decide_seconds',
} as const;

/** Who decided by a due time rather than a person (an expired review). */
export const DUE_TIME = 'due-time';

const DECIDED: readonly Review['status'][] = ['approved', 'rejected', 'expired'];

/**
 * What people did with each step's results, as scores with source `review` (one set per step, in the
 * steps' order; a step nobody decided or edited has none):
 *
 * - `approved` (boolean): the step's decision. When someone other than the runner was asked (a review), the
 *   last review of the step that was decided: approved, or rejected / expired (false, the reason as the
 *   comment); a pending or withdrawn review is no decision. Without a decided review, results the runner
 *   approved themselves count as approved (a model's pick of a choice and a result reused from another
 *   execution are nobody's decision).
 * - `edited` (boolean): a person changed the text of one of the decided results (those of the review, or
 *   else the step's approved or edited results).
 * - `edit_distance` (number): words changed between the model's text and the text now (wordEditDistance),
 *   summed over those results; 0 when none was edited.
 * - `time_to_decide_seconds` (number): from the review's request (asked by the step's rule as its results
 *   were made, or by the runner later; a review asked again after an edit counts from its own request) to
 *   its decision. Only for a review: when the runner approved a result is not recorded.
 */
export function reviewScores(state: ExecutionState): Score[] {
  const stepIds = [...new Set([...state.steps.map((s) => s.id), ...state.results.map((r) => r.stepId)])];
  return stepIds.flatMap((stepId) => stepScores(state, stepId));
}

function stepScores(state: ExecutionState, stepId: string): Score[] {
  const review = lastDecided(state.reviews.filter((r) => r.stepId === stepId && DECIDED.includes(r.status)));
  const own = state.results.filter((r) => r.stepId === stepId && !r.origin);
  const decided = review
    ? own.filter((r) => review.resultIds.includes(r.id))
    : own.filter((r) => (r.approved && r.choiceIndex === null) || r.edited);
  const approvedByRunner = decided.filter((r) => r.approved && r.choiceIndex === null);
  if (!review && decided.length === 0) return [];

  const score = (
    name: string,
    kind: Score['kind'],
    value: Score['value'],
    by: string,
    comment: string | null = null,
  ): Score => ({
    target: 'step',
    executionId: state.id,
    stepId,
    name,
    kind,
    value,
    source: 'review',
    by,
    comment,
  });
  const scores: Score[] = [];
  if (review) {
    const decision = decisionOf(review);
    scores.push(
      score(REVIEW_SCORE_NAMES.approved, 'boolean', decision.approved, decision.by, decision.comment),
    );
  } else if (approvedByRunner.length > 0) {
    scores.push(score(REVIEW_SCORE_NAMES.approved, 'boolean', true, state.userId));
  }
  const edits = decided.filter((r): r is StepResult & { edited: NonNullable<StepResult['edited']> } =>
    Boolean(r.edited),
  );
  const editor = edits.map((r) => r.edited.by).find((by) => by !== null) ?? state.userId;
  scores.push(score(REVIEW_SCORE_NAMES.edited, 'boolean', edits.length > 0, editor));
  const distance = edits.reduce((sum, r) => sum + wordEditDistance(r.edited.modelText, r.result), 0);
  scores.push(score(REVIEW_SCORE_NAMES.editDistance, 'number', distance, editor));
  if (review?.decidedAt) {
    const seconds = (Date.parse(review.decidedAt) - Date.parse(review.requestedAt)) / 1000;
    if (Number.isFinite(seconds))
      scores.push(
        score(REVIEW_SCORE_NAMES.timeToDecide, 'number', Math.max(0, seconds), decisionOf(review).by),
      );
  }
  return scores;
}

/** The review decided last (by its decision time; the later asked on a tie). */
function lastDecided(reviews: Review[]): Review | undefined {
  return reviews.reduce<Review | undefined>(
    (last, review) => (!last || (review.decidedAt ?? '') >= (last.decidedAt ?? '') ? review : last),
    undefined,
  );
}

function decisionOf(review: Review): { approved: boolean; by: string; comment: string | null } {
  if (review.status === 'approved') {
    const last = review.approvalsGiven.at(-1);
    return { approved: true, by: last?.userId ?? review.requestedBy, comment: last?.comment ?? null };
  }
  if (review.status === 'rejected' && review.rejection)
    return { approved: false, by: review.rejection.userId, comment: review.rejection.reason };
  return { approved: false, by: DUE_TIME, comment: 'Review hết hạn trước khi được quyết định' };
}
