import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type AnswerOf, answerOf, client, type Unpaged, unpaged } from '@/lib/api-client';
import { masterMode as t } from '../strings';

export type MasterSessionListItem = Unpaged<AnswerOf<'/api/master-mode/sessions'>>[number];

const SESSIONS_KEY = '/api/master-mode/sessions';

/** The user's master mode sessions made from a flow, the one used last first. */
export const flowMasterSessionsQueryOptions = (flowId: string) =>
  queryOptions({
    queryKey: [SESSIONS_KEY, { flowId }],
    queryFn: async ({ signal }) =>
      unpaged(
        answerOf(await client.GET('/api/master-mode/sessions', { params: { query: { flowId } }, signal })),
      ),
  });

/** Every master mode session of the user, with a flow or without, the one used last first. */
export const masterSessionsQueryOptions = queryOptions({
  queryKey: [SESSIONS_KEY, {}],
  queryFn: async ({ signal }) => unpaged(answerOf(await client.GET('/api/master-mode/sessions', { signal }))),
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
    mutationFn: async (sessionId: string) =>
      answerOf(
        await client.DELETE('/api/master-mode/session/{sessionId}', { params: { path: { sessionId } } }),
      ),
    meta: { errorToast: { title: t.deleteSessionFailed, description: '' } },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [SESSIONS_KEY] }),
  });
}
