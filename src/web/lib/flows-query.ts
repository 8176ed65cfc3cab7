import {
  infiniteQueryOptions,
  type QueryClient,
  queryOptions,
  useInfiniteQuery,
  useQuery,
} from '@tanstack/react-query';
import { type AnswerOf, answerOf, type BodyOf, client, pageOf, type Unpaged, unpaged } from './api-client';
import { pagedListParams, pageQuery } from './paged-list';

/**
 * A flow as GET /api/flows lists it. Every screen that lists or offers flows (the flows list, the fast
 * and static lists, the workshop, master mode, the session dialog) reads this one query and cache entry,
 * and every screen that makes a flow invalidates it.
 */
export type FlowListItem = Unpaged<AnswerOf<'/api/flows'>>[number];

export const flowsQueryOptions = queryOptions({
  queryKey: ['/api/flows'],
  queryFn: async ({ signal }) => unpaged(answerOf(await client.GET('/api/flows', { signal }))),
});

export function useFlows() {
  return useQuery(flowsQueryOptions);
}

/** A workspace's flows: under the flows list's key, so whatever invalidates that list reads these again. */
export const workspaceFlowsQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: [...flowsQueryOptions.queryKey, { workspaceId }],
    queryFn: async ({ signal }) =>
      unpaged(answerOf(await client.GET('/api/flows', { params: { query: { workspaceId } }, signal }))),
  });

/**
 * The flows list's own read, page by page as the list scrolls (the user's own flows, or a workspace's): under
 * the flows list's key, so whatever invalidates the flows reads these again; read anew each time the list
 * opens, since the changes made elsewhere (steps, runs) invalidate the whole list's entry only.
 */
export const flowPagesQueryOptions = (workspaceId: string | null) =>
  infiniteQueryOptions({
    queryKey: [...flowsQueryOptions.queryKey, 'pages', { workspaceId }],
    queryFn: async ({ pageParam, signal }) =>
      pageOf(
        answerOf(
          await client.GET('/api/flows', {
            params: { query: { ...pageQuery(pageParam), ...(workspaceId ? { workspaceId } : {}) } },
            signal,
          }),
        ),
      ),
    ...pagedListParams,
    staleTime: 0,
  });

export function useFlowPages(workspaceId: string | null) {
  return useInfiniteQuery(flowPagesQueryOptions(workspaceId));
}

/**
 * Creates a flow and its steps from Workflow JSON (the AI Creator's import and generation, the AI Flow
 * Creator's proposal); the flows list is read again to show it.
 */
export async function createFlowFromJson(
  queryClient: QueryClient,
  workflowJSON: unknown,
  origin: BodyOf<'/api/ai/create-from-json', 'post'>['origin'],
) {
  // The server is the judge of a workflow: an imported file goes as it was read, and is refused with reasons.
  const body = { workflowJSON, origin } as BodyOf<'/api/ai/create-from-json', 'post'>;
  const flow = answerOf(await client.POST('/api/ai/create-from-json', { body }));
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: flowsQueryOptions.queryKey, exact: true }),
    queryClient.invalidateQueries({ queryKey: [...flowsQueryOptions.queryKey, 'pages'] }),
  ]);
  return flow;
}
