import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { filter, skip } from 'rxjs';
import { type AnswerOf, answerOf, type BodyOf, client, type Unpaged, unpaged } from '@/lib/api-client';
import { executionQueryKey } from '@/lib/execution-query';
import { executionSocket } from '@/lib/execution-socket';
import type { Execution } from '@/lib/execution-stream';
import { reviewPanel } from '../strings';

export type InboxReview = Unpaged<AnswerOf<'/api/reviews'>>[number];

/** Whether a review is pending and its due time has passed. */
export const isOverdue = (review: { status: string; dueAt: string | null }, now: number): boolean =>
  review.status === 'pending' && review.dueAt !== null && Date.parse(review.dueAt) < now;
export type ReviewStatusFilter = 'pending' | 'done';

/**
 * How often the navigation's count asks again, in case a push was missed; requests and decisions are pushed
 * over the websocket and read at once (useLiveReviews).
 */
const COUNT_REFRESH_MS = 30_000;

export const reviewsQueryOptions = (status: ReviewStatusFilter) =>
  queryOptions({
    queryKey: ['/api/reviews', status],
    queryFn: async ({ signal }) =>
      unpaged(answerOf(await client.GET('/api/reviews', { params: { query: { status } }, signal }))),
    staleTime: 0,
  });

export function useReviews(status: ReviewStatusFilter) {
  return useQuery(reviewsQueryOptions(status));
}

/**
 * The inbox (its lists and the navigation's count) is read again when the server says a review that may be
 * in it was requested or decided, and on each (re)connection, since what was pushed while away is lost.
 */
export function useLiveReviews() {
  const queryClient = useQueryClient();
  useEffect(() => {
    const socket = executionSocket();
    const readAgain = () => void queryClient.invalidateQueries({ queryKey: ['/api/reviews'] });
    const stop = socket.listen((message) => {
      if (message.type === 'reviews-changed') readAgain();
    });
    // The first connection's read is the page's own; later ones catch up.
    const reconnected = socket.connected$.pipe(skip(1), filter(Boolean)).subscribe(readAgain);
    return () => {
      reconnected.unsubscribe();
      stop();
    };
  }, [queryClient]);
}

/** The reviews waiting for the signed-in user, kept current by push (and asked again every little while). */
export function usePendingReviewCount(): number {
  useLiveReviews();
  const { data } = useQuery({ ...reviewsQueryOptions('pending'), refetchInterval: COUNT_REFRESH_MS });
  return data?.length ?? 0;
}

type Decision = { reviewId: string } & (
  | { approve: true; comment?: string }
  | { approve: false; reason: string }
);

/** Approves or rejects a review; the execution and the inbox are read again. */
export function useDecideReview(executionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (decision: Decision) =>
      decision.approve
        ? answerOf(
            await client.POST('/api/reviews/{id}/approve', {
              params: { path: { id: decision.reviewId } },
              body: decision.comment ? { comment: decision.comment } : {},
            }),
          )
        : answerOf(
            await client.POST('/api/reviews/{id}/reject', {
              params: { path: { id: decision.reviewId } },
              body: { reason: decision.reason },
            }),
          ),
    meta: { errorToast: { description: reviewPanel.approveFailed } },
    onSuccess: (review) => {
      queryClient.setQueryData<Execution>(executionQueryKey(executionId), (execution) =>
        execution
          ? { ...execution, reviews: execution.reviews.map((r) => (r.id === review.id ? review : r)) }
          : execution,
      );
      void queryClient.invalidateQueries({ queryKey: executionQueryKey(executionId) });
      void queryClient.invalidateQueries({ queryKey: ['/api/reviews'] });
    },
  });
}

export type ReviewRequest = BodyOf<'/api/executions/{id}/steps/{stepId}/review-requests', 'post'>;

/**
 * The runner asks other people to review a step's latest results. The dialog tells a refusal itself (no
 * toast); the execution and the inbox are read again, besides the push that announces the request.
 */
export function useRequestReview(executionId: string, stepId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: ReviewRequest) =>
      answerOf(
        await client.POST('/api/executions/{id}/steps/{stepId}/review-requests', {
          params: { path: { id: executionId, stepId } },
          body,
        }),
      ),
    meta: { errorToast: false },
    // Not written into the cached execution: the pushed ReviewRequested event adds the review there, and
    // folding it onto a copy that has it already would show it twice. A read again catches a missed push.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: executionQueryKey(executionId) });
      void queryClient.invalidateQueries({ queryKey: ['/api/reviews'] });
    },
  });
}
