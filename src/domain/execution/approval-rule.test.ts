import { describe, expect, it } from 'vitest';
import { approvalBelongsToReview, reviewOfResult } from './approval-rule';
import { aStep, executionStarted, fold, ranStep, reviewRequested } from './testing';
import type { ExecutionEvent } from './types';

/** The execution of a flow in a workspace: only there can a rule ask another person. */
const startedInWorkspace = (...args: Parameters<typeof executionStarted>): ExecutionEvent => {
  const started = executionStarted(...args);
  return started.type === 'ExecutionStarted'
    ? { ...started, data: { ...started.data, workspaceId: 'workspace-1' } }
    : started;
};

describe('whose approval a result is', () => {
  const plain = aStep(1);

  it("is the result's own on a step the runner approves, with no review", () => {
    const state = fold([
      executionStarted([plain], ['cache-1']),
      ...ranStep(plain, 'run-1', 'cache-1', 'r-1', 'A'),
    ]);
    expect(approvalBelongsToReview(state, 'r-1')).toBe(false);
    expect(reviewOfResult(state, 'r-1')).toBeUndefined();
  });

  it("is the review's on a step that asks another person and forbids self-approval", () => {
    const reviewed = aStep(1, {
      review: { by: 'role', role: 'reviewer', approvals: 1, selfApproval: false },
    });
    const state = fold([
      startedInWorkspace([reviewed], ['cache-1']),
      ...ranStep(reviewed, 'run-1', 'cache-1', 'r-1', 'A'),
    ]);
    expect(approvalBelongsToReview(state, 'r-1')).toBe(true);
    // An execution started outside any workspace has nobody else to ask: its runner approves.
    const alone = fold([
      executionStarted([reviewed], ['cache-1']),
      ...ranStep(reviewed, 'run-1', 'cache-1', 'r-1', 'A'),
    ]);
    expect(approvalBelongsToReview(alone, 'r-1')).toBe(false);
  });

  it("stays the result's own when the rule lets the runner approve too", () => {
    const selfToo = aStep(1, { review: { by: 'role', role: 'reviewer', approvals: 1, selfApproval: true } });
    const state = fold([
      executionStarted([selfToo], ['cache-1']),
      ...ranStep(selfToo, 'run-1', 'cache-1', 'r-1', 'A'),
    ]);
    expect(approvalBelongsToReview(state, 'r-1')).toBe(false);
  });

  it("is the review's while a review holds the result, whatever it decided, and no longer once it is withdrawn", () => {
    const history = [
      executionStarted([plain], ['cache-1']),
      ...ranStep(plain, 'run-1', 'cache-1', 'r-1', 'A'),
      reviewRequested('review-1', ['r-1']),
    ];
    const pending = fold(history);
    expect(approvalBelongsToReview(pending, 'r-1')).toBe(true);
    expect(reviewOfResult(pending, 'r-1')?.id).toBe('review-1');

    const rejected = fold([
      ...history,
      {
        type: 'ReviewRejected',
        data: {
          reviewId: 'review-1',
          userId: 'user-2',
          role: 'reviewer',
          reason: 'No',
          at: '2025-01-02T04:00:00.000Z',
        },
      },
    ]);
    expect(approvalBelongsToReview(rejected, 'r-1')).toBe(true);
    expect(reviewOfResult(rejected, 'r-1')?.status).toBe('rejected');

    const withdrawn = fold([
      ...history,
      { type: 'ReviewWithdrawn', data: { reviewId: 'review-1', at: '2025-01-02T04:00:00.000Z' } },
    ]);
    expect(approvalBelongsToReview(withdrawn, 'r-1')).toBe(false);
  });
});
