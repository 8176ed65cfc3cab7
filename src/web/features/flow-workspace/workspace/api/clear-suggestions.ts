import { useMutation, useQueryClient } from '@tanstack/react-query';
import { suggestions as t } from '@/features/flow-workspace/strings';
import { answerOf, client } from '@/lib/api-client';
import { emptyPages } from '@/lib/paged-list';
import { suggestionsQueryOptions } from './get-suggestions';

export const clearSuggestions = async (flowId: string) =>
  answerOf(await client.DELETE('/api/flows/{flowId}/suggestions', { params: { path: { flowId } } }));

export function useClearSuggestions(flowId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => clearSuggestions(flowId),
    meta: { errorToast: { description: t.clearFailed } },
    onSuccess: () => queryClient.setQueryData(suggestionsQueryOptions(flowId).queryKey, emptyPages()),
  });
}
