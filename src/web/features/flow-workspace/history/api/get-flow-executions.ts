import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { type AnswerOf, answerOf, client, pageOf, type Unpaged } from '@/lib/api-client';
import { pagedListParams, pageQuery } from '@/lib/paged-list';

/** An execution as the flow's list names it; the newest comes first. */
export type FlowExecution = Unpaged<AnswerOf<'/api/flows/{flowId}/executions'>>[number];

/** The flow's executions, newest first, page by page; read anew each time the history opens. */
export const flowExecutionsQueryOptions = (flowId: string) =>
  infiniteQueryOptions({
    queryKey: ['/api/flows', flowId, 'executions'],
    queryFn: async ({ pageParam, signal }) =>
      pageOf(
        answerOf(
          await client.GET('/api/flows/{flowId}/executions', {
            params: { path: { flowId }, query: pageQuery(pageParam) },
            signal,
          }),
        ),
      ),
    ...pagedListParams,
    staleTime: 0,
  });

export function useFlowExecutions(flowId: string, enabled: boolean) {
  return useInfiniteQuery({ ...flowExecutionsQueryOptions(flowId), enabled });
}
