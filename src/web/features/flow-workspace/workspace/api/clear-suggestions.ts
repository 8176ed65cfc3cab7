import { useMutation, useQueryClient } from '@tanstack/react-query';
import { suggestions as t } from '@/features/flow-workspace/strings';
import { api } from '@/lib/api-client';
import { suggestionsQueryOptions } from './get-suggestions';

export const clearSuggestions = (flowId: string) => api.delete(`/api/flows/${flowId}/suggestions`);

export function useClearSuggestions(flowId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => clearSuggestions(flowId),
    meta: { errorToast: { description: t.clearFailed } },
    onSuccess: () => queryClient.setQueryData(suggestionsQueryOptions(flowId).queryKey, []),
  });
}
