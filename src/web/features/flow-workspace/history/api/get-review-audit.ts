import { queryOptions, useQuery } from '@tanstack/react-query';
import { type AnswerOf, answerOf, client, type Unpaged, unpaged } from '@/lib/api-client';

/** One review of an execution as an auditor reads it: the people named, each decision and what it saw. */
export type ReviewAudit = Unpaged<AnswerOf<'/api/executions/{id}/reviews/audit'>>[number];
export type ReviewDecision = ReviewAudit['decisions'][number];

export const reviewAuditQueryOptions = (executionId: string) =>
  queryOptions<ReviewAudit[]>({
    queryKey: ['/api/executions', executionId, 'reviews', 'audit'],
    queryFn: async ({ signal }) =>
      unpaged(
        answerOf(
          await client.GET('/api/executions/{id}/reviews/audit', {
            params: { path: { id: executionId } },
            signal,
          }),
        ),
      ),
    // A pending review's wait grows, and decisions come in: each opening reads it again.
    staleTime: 0,
  });

export function useReviewAudit(executionId: string) {
  return useQuery(reviewAuditQueryOptions(executionId));
}
