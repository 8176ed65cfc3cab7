import { queryOptions, useQuery } from '@tanstack/react-query';
import { type AnswerOf, answerOf, client, type Unpaged, unpaged } from '@/lib/api-client';

/** An execution as the flow's list names it; the newest comes first. */
export type FlowExecution = Unpaged<AnswerOf<'/api/flows/{flowId}/executions'>>[number];

export const flowExecutionsQueryOptions = (flowId: string) =>
  queryOptions({
    queryKey: ['/api/flows', flowId, 'executions'],
    queryFn: async ({ signal }) =>
      unpaged(
        answerOf(
          await client.GET('/api/flows/{flowId}/executions', { params: { path: { flowId } }, signal }),
        ),
      ),
    staleTime: 0,
  });

export function useFlowExecutions(flowId: string, enabled: boolean) {
  return useQuery({ ...flowExecutionsQueryOptions(flowId), enabled });
}
