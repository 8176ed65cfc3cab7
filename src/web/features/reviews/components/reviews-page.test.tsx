// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type InboxReview, reviewsQueryOptions } from '../api/reviews';
import { reviewsPage } from '../strings';
import { ReviewsPage } from './reviews-page';

const HOUR = 60 * 60 * 1000;

const inboxReview = (id: string, dueAt: string | null): InboxReview => ({
  id,
  executionId: 'execution-1',
  flowId: 'flow-1',
  stepId: 'step-1',
  flowName: 'Bài blog',
  stepName: 'Bản nháp',
  requestedBy: { userId: 'user-1', name: 'An Nguyễn' },
  requestedAt: new Date(Date.now() - 2 * HOUR).toISOString(),
  dueAt,
  approvalsNeeded: 1,
  approvalsGiven: [],
  status: 'pending',
});

beforeEach(() => {
  // The page's live updates open no socket here: nothing answers.
  vi.stubGlobal('WebSocket', class {});
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the reviews inbox', () => {
  it('marks a pending review past its due time as overdue, and no other', () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
    client.setQueryData(reviewsQueryOptions('pending').queryKey, [
      inboxReview('late', new Date(Date.now() - HOUR).toISOString()),
      inboxReview('soon', new Date(Date.now() + HOUR).toISOString()),
      inboxReview('whenever', null),
    ]);
    render(
      <QueryClientProvider client={client}>
        <ReviewsPage />
      </QueryClientProvider>,
    );
    expect(screen.getByTestId('review-overdue-late').textContent).toBe(reviewsPage.overdue);
    expect(screen.getByTestId('review-late').dataset.overdue).toBe('true');
    expect(screen.queryByTestId('review-overdue-soon')).toBeNull();
    expect(screen.queryByTestId('review-overdue-whenever')).toBeNull();
  });

  it('marks a review overdue as its due time passes, while the page stays open', () => {
    vi.useFakeTimers();
    try {
      const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
      client.setQueryData(reviewsQueryOptions('pending').queryKey, [
        inboxReview('soon', new Date(Date.now() + 5_000).toISOString()),
      ]);
      render(
        <QueryClientProvider client={client}>
          <ReviewsPage />
        </QueryClientProvider>,
      );
      expect(screen.queryByTestId('review-overdue-soon')).toBeNull();
      act(() => vi.advanceTimersByTime(4_000));
      expect(screen.queryByTestId('review-overdue-soon')).toBeNull();
      act(() => vi.advanceTimersByTime(1_100));
      expect(screen.getByTestId('review-overdue-soon').textContent).toBe(reviewsPage.overdue);
    } finally {
      vi.useRealTimers();
    }
  });
});
