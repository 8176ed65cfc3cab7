import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MasterSession } from '../../../../domain/master-mode/master-session';
import { masterMode as t } from '../strings';

export type MasterSessionListItem = MasterSession & { stepCount: number };

const SESSIONS_KEY = '/api/master-mode/sessions';

/** The user's master mode sessions made from a flow, the one used last first. */
export const flowMasterSessionsQueryOptions = (flowId: string) =>
  queryOptions<MasterSessionListItem[]>({
    queryKey: [SESSIONS_KEY, { flowId }],
    queryFn: () => api.get<MasterSessionListItem[]>(`${SESSIONS_KEY}?flowId=${encodeURIComponent(flowId)}`),
  });

/** Every master mode session of the user, with a flow or without, the one used last first. */
export const masterSessionsQueryOptions = queryOptions<MasterSessionListItem[]>({
  queryKey: [SESSIONS_KEY, {}],
  queryFn: () => api.get<MasterSessionListItem[]>(SESSIONS_KEY),
});

export function useFlowMasterSessions(flowId: string) {
  return useQuery(flowMasterSessionsQueryOptions(flowId));
}

export function useMasterSessions() {
  return useQuery(masterSessionsQueryOptions);
}

export function useDeleteMasterSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sessionId: string) => api.delete(`/api/master-mode/session/${sessionId}`),
    meta: { errorToast: { title: t.deleteSessionFailed, description: '' } },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [SESSIONS_KEY] }),
  });
}
