import { useMutation, useQueryClient } from '@tanstack/react-query';
import { answerOf, type BodyOf, client } from '@/lib/api-client';
import { mapItems } from '@/lib/paged-list';
import { recommendations as t } from '../strings';
import { recommendationsQueryOptions } from './get-recommendations';

export type FeedbackInput = BodyOf<'/api/recommendations/{id}/feedback', 'post'>;

export const giveFeedback = async ({ id, ...input }: FeedbackInput & { id: string }) =>
  answerOf(
    await client.POST('/api/recommendations/{id}/feedback', { params: { path: { id } }, body: input }),
  );

/** The answer is the recommendation as it stands after the feedback: it replaces the cached one. */
export function useGiveFeedback() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: giveFeedback,
    meta: { errorToast: { title: t.toasts.feedbackFailedTitle, description: t.toasts.feedbackFailed } },
    onSuccess: (updated) =>
      queryClient.setQueryData(recommendationsQueryOptions.queryKey, (pages) =>
        mapItems(pages, (r) => (r.id === updated.id ? updated : r)),
      ),
  });
}
