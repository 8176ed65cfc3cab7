import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { type AnswerOf, answerOf, client, pageOf, type Unpaged } from '@/lib/api-client';
import { pagedListParams, pageQuery } from '@/lib/paged-list';

export type RecommendationRecord = Unpaged<AnswerOf<'/api/recommendations'>>[number];

/** The user's recommendations, most urgent and confident first, page by page as the screen scrolls. */
export const recommendationsQueryOptions = infiniteQueryOptions({
  queryKey: ['/api/recommendations'],
  queryFn: async ({ pageParam, signal }) =>
    pageOf(
      answerOf(await client.GET('/api/recommendations', { params: { query: pageQuery(pageParam) }, signal })),
    ),
  ...pagedListParams,
});

export function useRecommendations() {
  return useInfiniteQuery(recommendationsQueryOptions);
}
