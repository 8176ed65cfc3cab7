import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type {
  RecommendationFeedbackInput,
  RecommendationRecord,
} from '../../../../domain/workflow-recommendations';
import { recommendations as t } from '../strings';
import { recommendationsQueryOptions } from './get-recommendations';

export const giveFeedback = ({ id, ...input }: RecommendationFeedbackInput & { id: string }) =>
  api.post<RecommendationRecord>(`/api/recommendations/${id}/feedback`, input);

/** The answer is the recommendation as it stands after the feedback: it replaces the cached one. */
export function useGiveFeedback() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: giveFeedback,
    meta: { errorToast: { title: t.toasts.feedbackFailedTitle, description: t.toasts.feedbackFailed } },
    onSuccess: (updated) =>
      queryClient.setQueryData(recommendationsQueryOptions.queryKey, (list = []) =>
        list.map((r) => (r.id === updated.id ? updated : r)),
      ),
  });
}
