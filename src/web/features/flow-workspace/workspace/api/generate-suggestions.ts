import { useMutation, useQueryClient } from '@tanstack/react-query';
import { suggestions as t } from '@/features/flow-workspace/strings';
import { answerOf, client } from '@/lib/api-client';
import { withFirst } from '@/lib/paged-list';
import { suggestionsQueryOptions } from './get-suggestions';

export const generateSuggestions = async (flowId: string) =>
  answerOf(await client.POST('/api/flows/{flowId}/suggestions', { params: { path: { flowId } } }));

/** A new record goes on top of the list, as the server orders it. */
export function useGenerateSuggestions(flowId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => generateSuggestions(flowId),
    meta: { errorToast: { messageOr: t.generateFailed } },
    onSuccess: (record) =>
      queryClient.setQueryData(suggestionsQueryOptions(flowId).queryKey, (pages) => withFirst(pages, record)),
  });
}
