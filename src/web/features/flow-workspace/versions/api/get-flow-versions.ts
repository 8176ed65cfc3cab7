import { queryOptions, useQuery } from '@tanstack/react-query';
import { type AnswerOf, answerOf, client, type Unpaged, unpaged } from '@/lib/api-client';

/**
 * One version of a flow: a change of the flow or its steps, who made it (no name when the user is gone)
 * and when, and the executions that started from it; oldest first.
 */
export type FlowVersion = Unpaged<AnswerOf<'/api/flows/{id}/versions'>>[number];

/** An execution as a version names it: one that started from that version. */
export type VersionExecution = FlowVersion['executions'][number];

export const flowVersionsQueryOptions = (flowId: string) =>
  queryOptions({
    queryKey: ['/api/flows', flowId, 'versions'],
    queryFn: async ({ signal }) =>
      unpaged(
        answerOf(await client.GET('/api/flows/{id}/versions', { params: { path: { id: flowId } }, signal })),
      ),
    // Every edit in the workspace adds a version: each opening reads the list again.
    staleTime: 0,
  });

export function useFlowVersions(flowId: string) {
  return useQuery(flowVersionsQueryOptions(flowId));
}
