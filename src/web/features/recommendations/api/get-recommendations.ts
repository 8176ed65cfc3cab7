import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RecommendationRecord } from '../../../../domain/workflow-recommendations';

export const recommendationsQueryOptions = queryOptions<RecommendationRecord[]>({
  queryKey: ['/api/recommendations'],
});

export function useRecommendations() {
  return useQuery(recommendationsQueryOptions);
}
