import type { Review, StepResult } from './types';

/** A result under review as its reviewers decide on it: the text now, the model's own, and who changed it. */
export interface ReviewedText {
  resultId: string;
  text: string;
  modelText: string;
  /** Who edited it last; null when nobody did, or on an edit recorded before edits named their author. */
  editedBy: { userId: string; name: string } | null;
  /** When it was edited last; null when nobody edited it. */
  editedAt: string | null;
}

/**
 * A review's results as the execution holds them now, from each result's `edited`: what the API answers on
 * each review and what the run screen shows the reviewer (there kept up to date by every live event).
 */
export const reviewedTextsOf = (
  review: Pick<Review, 'resultIds'>,
  results: readonly StepResult[],
  nameOf: (userId: string) => string,
): ReviewedText[] =>
  review.resultIds.flatMap((resultId) => {
    const result = results.find((each) => each.id === resultId);
    if (!result) return [];
    const { edited } = result;
    return [
      {
        resultId,
        text: result.result,
        modelText: edited?.modelText ?? result.result,
        editedBy: edited?.by ? { userId: edited.by, name: nameOf(edited.by) } : null,
        editedAt: edited?.at ?? null,
      },
    ];
  });
