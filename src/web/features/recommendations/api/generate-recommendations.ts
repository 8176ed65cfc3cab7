import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { RecommendationRecord } from '../../../../domain/workflow-recommendations';
import { recommendations as t } from '../strings';
import { patternsQueryOptions } from './get-patterns';
import { recommendationsQueryOptions } from './get-recommendations';

export interface GeneratedRecommendations {
  count: number;
  recommendations: RecommendationRecord[];
}

export const generateRecommendations = () =>
  api.post<GeneratedRecommendations>('/api/recommendations/generate');

/** A new look replaces some recommendations and counts patterns again: both lists are read afresh. */
export function useGenerateRecommendations() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: generateRecommendations,
    meta: { errorToast: { title: t.toasts.generateFailedTitle, description: t.toasts.generateFailed } },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: recommendationsQueryOptions.queryKey }),
        queryClient.invalidateQueries({ queryKey: patternsQueryOptions.queryKey }),
      ]),
  });
}
