import { useMutation, useQueryClient } from '@tanstack/react-query';
import { answerOf, client } from '@/lib/api-client';
import { flowsQueryOptions } from '@/lib/flows-query';
import { toasts } from '@/lib/strings';

export const deleteFlow = async (flowId: string) =>
  answerOf(await client.DELETE('/api/flows/{id}', { params: { path: { id: flowId } } }));

export function useDeleteFlow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteFlow,
    meta: { errorToast: { title: toasts.deleteErrorTitle, description: toasts.flowDeleteFailed } },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: flowsQueryOptions.queryKey }),
  });
}
