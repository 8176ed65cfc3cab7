import { queryOptions, useQuery } from '@tanstack/react-query';
import { type AnswerOf, answerOf, client, type Unpaged, unpaged } from '@/lib/api-client';

/**
 * One model request as the AI request log shows it: the prompt sent, the [[label]]s it referenced and the
 * text that replaced them, labels left as written (nothing earlier answered to them), results it used while
 * nobody had approved them, the answer, and the StepRunStarted event it belongs to (`npm run events -- show
 * <executionId>` lists it).
 */
export type AiRequestLog = Unpaged<AnswerOf<'/api/flows/{flowId}/logs'>>[number];

export const logsQueryOptions = (flowId: string) =>
  queryOptions({
    queryKey: ['/api/flows', flowId, 'logs'],
    queryFn: async ({ signal }) =>
      unpaged(
        answerOf(await client.GET('/api/flows/{flowId}/logs', { params: { path: { flowId } }, signal })),
      ),
    staleTime: 0,
  });

export function useLogs(flowId: string, enabled: boolean) {
  return useQuery({ ...logsQueryOptions(flowId), enabled });
}
