import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { type AnswerOf, answerOf, client, pageOf, type Unpaged } from '@/lib/api-client';
import { pagedListParams, pageQuery } from '@/lib/paged-list';
import { masterMode as t } from '../strings';

export type MasterSessionListItem = Unpaged<AnswerOf<'/api/master-mode/sessions'>>[number];

const SESSIONS_KEY = '/api/master-mode/sessions';

/**
 * The user's master mode sessions made from a flow, the one used last first: the flow's master mode opens
 * that one, so its first page is that one alone.
 */
export const flowMasterSessionsQueryOptions = (flowId: string) =>
  infiniteQueryOptions({
    queryKey: [SESSIONS_KEY, { flowId }],
    queryFn: async ({ pageParam, signal }) =>
      pageOf(
        answerOf(
          await client.GET('/api/master-mode/sessions', {
            params: { query: { ...pageQuery(pageParam, 1), flowId } },
            signal,
          }),
        ),
      ),
    ...pagedListParams,
  });

/** Every master mode session of the user, with a flow or without, the one used last first, page by page. */
export const masterSessionsQueryOptions = infiniteQueryOptions({
  queryKey: [SESSIONS_KEY, {}],
  queryFn: async ({ pageParam, signal }) =>
    pageOf(
      answerOf(
        await client.GET('/api/master-mode/sessions', { params: { query: pageQuery(pageParam) }, signal }),
      ),
    ),
  ...pagedListParams,
});

export function useFlowMasterSessions(flowId: string) {
  return useInfiniteQuery(flowMasterSessionsQueryOptions(flowId));
}

export function useMasterSessions() {
  return useInfiniteQuery(masterSessionsQueryOptions);
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
