import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type AnswerOf, answerOf, client } from '@/lib/api-client';
import { recommendations as t } from '../strings';
import { patternsQueryOptions } from './get-patterns';
import { recommendationsQueryOptions } from './get-recommendations';

export type GeneratedRecommendations = AnswerOf<'/api/recommendations/generate', 'post'>;

export const generateRecommendations = async () =>
  answerOf(await client.POST('/api/recommendations/generate'));

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
