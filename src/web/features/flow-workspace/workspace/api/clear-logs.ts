import { useMutation, useQueryClient } from '@tanstack/react-query';
import { logs as t } from '@/features/flow-workspace/strings';
import { answerOf, client } from '@/lib/api-client';
import { emptyPages } from '@/lib/paged-list';
import { contextQueryOptions } from './get-context';
import { logsQueryOptions } from './get-logs';

export const clearLogs = async (flowId: string) =>
  answerOf(await client.DELETE('/api/flows/{flowId}/logs', { params: { path: { flowId } } }));

/** Clearing hides the flow's requests so far, and with them the conversation its context shows. */
export function useClearLogs(flowId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => clearLogs(flowId),
    meta: { errorToast: { title: t.clearFailed, messageOr: '' } },
    onSuccess: () => {
      queryClient.setQueryData(logsQueryOptions(flowId).queryKey, emptyPages());
      void queryClient.invalidateQueries({ queryKey: contextQueryOptions(flowId).queryKey });
    },
  });
}
