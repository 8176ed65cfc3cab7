import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type AnswerOf, answerOf, client } from '@/lib/api-client';
import { flowsQueryOptions } from '@/lib/flows-query';
import { recommendations as t } from '../strings';
import { recommendationsQueryOptions } from './get-recommendations';

/** The flow made from a recommendation, with the steps it was given. */
export type ImplementedFlow = AnswerOf<'/api/recommendations/{id}/implement', 'post'>;

export const implementRecommendation = async (id: string) =>
  answerOf(await client.POST('/api/recommendations/{id}/implement', { params: { path: { id } } }));

export function useImplementRecommendation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: implementRecommendation,
    meta: { errorToast: { title: t.toasts.implementFailedTitle, description: t.toasts.implementFailed } },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: recommendationsQueryOptions.queryKey }),
        // The new flow must be in the flows list when the user goes there.
        queryClient.invalidateQueries({ queryKey: flowsQueryOptions.queryKey }),
      ]),
  });
}
