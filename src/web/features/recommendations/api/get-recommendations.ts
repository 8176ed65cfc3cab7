import { queryOptions, useQuery } from '@tanstack/react-query';
import { type AnswerOf, answerOf, client, type Unpaged, unpaged } from '@/lib/api-client';

export type RecommendationRecord = Unpaged<AnswerOf<'/api/recommendations'>>[number];

export const recommendationsQueryOptions = queryOptions({
  queryKey: ['/api/recommendations'],
  queryFn: async ({ signal }) => unpaged(answerOf(await client.GET('/api/recommendations', { signal }))),
});

export function useRecommendations() {
  return useQuery(recommendationsQueryOptions);
}
