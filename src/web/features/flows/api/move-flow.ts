import { useMutation, useQueryClient } from '@tanstack/react-query';
import { answerOf, client } from '@/lib/api-client';
import { flowsQueryOptions } from '@/lib/flows-query';
import { moveFlow as t } from '../strings';

/** Moves a flow into a workspace, or back to its owner's own flows (null); every flows list is read again. */
export function useMoveFlow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ flowId, workspaceId }: { flowId: string; workspaceId: string | null }) =>
      answerOf(
        await client.POST('/api/flows/{id}/move', {
          params: { path: { id: flowId } },
          body: { workspaceId },
        }),
      ),
    meta: { errorToast: { messageOr: t.failed } },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: flowsQueryOptions.queryKey }),
  });
}
