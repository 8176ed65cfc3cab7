import { useMutation, useQueryClient } from '@tanstack/react-query';
import { answerOf, client } from '@/lib/api-client';
import { sessions as t } from '../strings';
import { userSessionsQueryOptions } from './get-user-sessions';

export const deleteUserSession = async (sessionId: string) =>
  answerOf(await client.DELETE('/api/user-sessions/{id}', { params: { path: { id: sessionId } } }));

export function useDeleteUserSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUserSession,
    meta: { errorToast: { description: t.deleteFailed } },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userSessionsQueryOptions.queryKey }),
  });
}
