import { useMutation, useQueryClient } from '@tanstack/react-query';
import { conversationContext as t } from '@/features/flow-workspace/strings';
import { answerOf, client } from '@/lib/api-client';
import { contextQueryOptions } from './get-context';

export const clearRejectedIdeas = async (flowId: string) =>
  answerOf(
    await client.DELETE('/api/flows/{flowId}/context/rejected-ideas', { params: { path: { flowId } } }),
  );

/** The flow's rejected ideas so far leave its prompts and its context (the event log keeps them). */
export function useClearRejectedIdeas(flowId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => clearRejectedIdeas(flowId),
    meta: { errorToast: { title: t.clearRejectedFailed, messageOr: '' } },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: contextQueryOptions(flowId).queryKey });
    },
  });
}
