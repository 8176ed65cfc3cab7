import { useMutation, useQueryClient } from '@tanstack/react-query';
import { conversationContext as t } from '@/features/flow-workspace/strings';
import { answerOf, client } from '@/lib/api-client';
import { contextQueryOptions } from './get-context';

/** The errors these calls throw are the catalogue's; the server's answer stays as the cause. */
export const createContext = (flowId: string, userNotes: string) =>
  client
    .POST('/api/flows/{flowId}/context', { params: { path: { flowId } }, body: { userNotes } })
    .then(answerOf, (cause: unknown) => {
      throw new Error(t.createFailed, { cause });
    });

export const updateContextNotes = (flowId: string, userNotes: string) =>
  client
    .PATCH('/api/flows/{flowId}/context', { params: { path: { flowId } }, body: { userNotes } })
    .then(answerOf, (cause: unknown) => {
      throw new Error(t.updateFailed, { cause });
    });

/** The first save creates the context (POST); later saves change its notes (PATCH). */
export function useSaveContextNotes(flowId: string, exists: boolean) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userNotes: string) =>
      exists ? updateContextNotes(flowId, userNotes) : createContext(flowId, userNotes),
    meta: {
      errorToast: exists
        ? { messageOr: t.updateFailed }
        : { title: t.createToast, messageOr: t.createFailed },
    },
    onSuccess: (context) => queryClient.setQueryData(contextQueryOptions(flowId).queryKey, context),
    // Another tab may have created the context meanwhile: the next save then knows to PATCH.
    onError: () => queryClient.invalidateQueries({ queryKey: contextQueryOptions(flowId).queryKey }),
  });
}
