import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { type AnswerOf, answerOf, client, pageOf, type Unpaged } from '@/lib/api-client';
import { pagedListParams, pageQuery } from '@/lib/paged-list';

/**
 * One model request as the AI request log shows it: the prompt sent, the [[label]]s it referenced and the
 * text that replaced them, labels left as written (nothing earlier answered to them), results it used while
 * nobody had approved them, the answer, and the StepRunStarted event it belongs to (`npm run events -- show
 * <executionId>` lists it).
 */
export type AiRequestLog = Unpaged<AnswerOf<'/api/flows/{flowId}/logs'>>[number];

/** The flow's requests, newest first, page by page as the dialog scrolls; read anew each time it opens. */
export const logsQueryOptions = (flowId: string) =>
  infiniteQueryOptions({
    queryKey: ['/api/flows', flowId, 'logs'],
    queryFn: async ({ pageParam, signal }) =>
      pageOf(
        answerOf(
          await client.GET('/api/flows/{flowId}/logs', {
            params: { path: { flowId }, query: pageQuery(pageParam) },
            signal,
          }),
        ),
      ),
    ...pagedListParams,
    staleTime: 0,
  });

export function useLogs(flowId: string, enabled: boolean) {
  return useInfiniteQuery({ ...logsQueryOptions(flowId), enabled });
}
