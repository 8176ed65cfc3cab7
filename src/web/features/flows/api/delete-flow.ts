import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { flowsQueryOptions } from '@/lib/flows-query';
import { toasts } from '@/lib/strings';

export const deleteFlow = (flowId: string) => api.delete(`/api/flows/${flowId}`);

export function useDeleteFlow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteFlow,
    meta: { errorToast: { title: toasts.deleteErrorTitle, description: toasts.flowDeleteFailed } },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: flowsQueryOptions.queryKey }),
  });
}
