import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { type AnswerOf, answerOf, client, pageOf, type Unpaged } from '@/lib/api-client';
import { pagedListParams, pageQuery } from '@/lib/paged-list';

/**
 * One version of a flow: a change of the flow or its steps, who made it (no name when the user is gone)
 * and when, and the executions that started from it; oldest first.
 */
export type FlowVersion = Unpaged<AnswerOf<'/api/flows/{id}/versions'>>[number];

/** An execution as a version names it: one that started from that version. */
export type VersionExecution = FlowVersion['executions'][number];

/** The flow's versions, oldest first, page by page as the timeline scrolls. */
export const flowVersionsQueryOptions = (flowId: string) =>
  infiniteQueryOptions({
    queryKey: ['/api/flows', flowId, 'versions'],
    queryFn: async ({ pageParam, signal }) =>
      pageOf(
        answerOf(
          await client.GET('/api/flows/{id}/versions', {
            params: { path: { id: flowId }, query: pageQuery(pageParam) },
            signal,
          }),
        ),
      ),
    ...pagedListParams,
    // Every edit in the workspace adds a version: each opening reads the list again.
    staleTime: 0,
  });

export function useFlowVersions(flowId: string) {
  return useInfiniteQuery(flowVersionsQueryOptions(flowId));
}
