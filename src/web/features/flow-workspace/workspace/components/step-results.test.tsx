// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { membersQueryOptions } from '@/features/workspaces';
import type { Execution } from '@/lib/execution-stream';
import {
  aFlowStep,
  aStep,
  executionStarted,
  fold,
  ranStep,
  reviewRequested,
} from '../../../../../domain/execution/testing';
import type { ExecutionEvent } from '../../../../../domain/execution/types';
import type { StepReview } from '../../../../../domain/step-review';
import { StepResults } from './step-results';

const byReviewer: StepReview = { by: 'role', role: 'reviewer', approvals: 1, selfApproval: false };

/** Step 1 ran once (result-1) in a workspace's execution, with the step's rule and what followed. */
function executionOf(review: StepReview | undefined, ...after: ExecutionEvent[]): Execution {
  const step = aStep(1, review ? { review } : {});
  const started = executionStarted([step], ['cache-1']);
  const events: ExecutionEvent[] = [
    started.type === 'ExecutionStarted'
      ? { ...started, data: { ...started.data, workspaceId: 'workspace-1' } }
      : started,
    ...ranStep(step, 'run-1', 'cache-1', 'result-1', 'Bản nháp'),
    ...after,
  ];
  return { ...fold(events), version: events.length };
}

const requested = reviewRequested('review-1', ['result-1'], { runId: 'run-1' });

const members = [{ userId: 'binh', name: 'Bình Trần', email: 'binh@example.com', role: 'reviewer' }];

function renderResults(execution: Execution) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(membersQueryOptions('workspace-1').queryKey, members as never);
  return render(
    <QueryClientProvider client={client}>
      <StepResults step={aFlowStep(1)} execution={execution} />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () => new Response(JSON.stringify(members), { headers: { 'content-type': 'application/json' } }),
    ),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const status = () => screen.queryByTestId('result-review-status-result-1');
const checkbox = () => screen.queryByTestId('approve-result-1');

describe("a result's Approve", { timeout: 20_000 }, () => {
  it('is offered on a step the runner approves', () => {
    renderResults(executionOf(undefined));
    expect(checkbox()).not.toBeNull();
    expect(status()).toBeNull();
  });

  it("is not offered where only a review approves: the review's standing is shown instead", async () => {
    renderResults(executionOf(byReviewer));
    expect(checkbox()).toBeNull();
    expect(status()?.textContent).toBe('Chỉ approve qua review');
    cleanup();

    renderResults(executionOf(byReviewer, requested));
    expect(status()?.textContent).toBe('Chờ review');
    cleanup();

    renderResults(
      executionOf(byReviewer, requested, {
        type: 'ReviewApproved',
        data: {
          reviewId: 'review-1',
          userId: 'binh',
          role: 'reviewer',
          comment: null,
          at: '2025-01-02T04:00:00.000Z',
        },
      }),
    );
    await vi.waitFor(() => expect(status()?.textContent).toBe('Đã được Bình Trần approve'));
    cleanup();

    // A review the runner asked for on a step without a rule holds the result as well.
    renderResults(
      executionOf(undefined, requested, {
        type: 'ReviewRejected',
        data: {
          reviewId: 'review-1',
          userId: 'binh',
          role: 'reviewer',
          reason: 'Thiếu nguồn',
          at: '2025-01-02T04:00:00.000Z',
        },
      }),
    );
    expect(checkbox()).toBeNull();
    await vi.waitFor(() => expect(status()?.textContent).toBe('Bị Bình Trần reject: Thiếu nguồn'));
  });

  it('comes back once the review holding the result is withdrawn', () => {
    renderResults(
      executionOf(undefined, requested, {
        type: 'ReviewWithdrawn',
        data: { reviewId: 'review-1', at: '2025-01-02T04:00:00.000Z' },
      }),
    );
    expect(checkbox()).not.toBeNull();
  });
});
