import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { executionQueryKey } from '@/features/flow-workspace/api/get-execution';
import { type AnswerOf, answerOf, client, type Unpaged, unpaged } from '@/lib/api-client';
import type { Execution } from '@/lib/execution-stream';
import { reviewPanel } from '../strings';

export type InboxReview = Unpaged<AnswerOf<'/api/reviews'>>[number];
export type ReviewStatusFilter = 'pending' | 'done';

/** How often the navigation's count asks again: new requests show up without a reload. */
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

/** The reviews waiting for the signed-in user, asked again every little while. */
export function usePendingReviewCount(): number {
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
