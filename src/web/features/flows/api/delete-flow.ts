import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { flowsQueryOptions } from '../../../lib/flows-query';

export const deleteFlow = (flowId: string) => api.delete(`/api/flows/${flowId}`);

export function useDeleteFlow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteFlow,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: flowsQueryOptions.queryKey }),
  });
}
