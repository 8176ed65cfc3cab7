import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { sessions as t } from '../strings';
import { userSessionsQueryOptions } from './get-user-sessions';

export const deleteUserSession = (sessionId: string) => api.delete(`/api/user-sessions/${sessionId}`);

export function useDeleteUserSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUserSession,
    meta: { errorToast: { description: t.deleteFailed } },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userSessionsQueryOptions.queryKey }),
  });
}
