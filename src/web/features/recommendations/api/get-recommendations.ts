import { queryOptions, useQuery } from '@tanstack/react-query';
import { type AnswerOf, answerOf, client } from '@/lib/api-client';

export type RecommendationRecord = AnswerOf<'/api/recommendations'>[number];

export const recommendationsQueryOptions = queryOptions({
  queryKey: ['/api/recommendations'],
  queryFn: async ({ signal }) => answerOf(await client.GET('/api/recommendations', { signal })),
});

export function useRecommendations() {
  return useQuery(recommendationsQueryOptions);
}
