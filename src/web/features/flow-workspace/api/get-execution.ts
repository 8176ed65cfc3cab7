import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { answerOf, client } from '@/lib/api-client';
import { type Execution, newerExecution } from '@/lib/execution-stream';

/** An execution is polled every second while shown; pushed events land in the same cache entry. */
export const EXECUTION_POLL_MS = 1000;

export const executionQueryKey = (executionId: string) => ['/api/executions', executionId] as const;

export const latestExecutionQueryKey = (flowId: string) =>
  ['/api/flows', flowId, 'executions', 'latest'] as const;

/** Puts an execution the server answered with into the cache, unless the cache already knows more. */
export function storeExecution(queryClient: QueryClient, execution: Execution) {
  queryClient.setQueryData<Execution>(executionQueryKey(execution.id), (current) =>
    newerExecution(current, execution),
  );
}

/** A newly started execution: stored, and from now on the flow's latest, the one the run screen works on. */
export function storeLatestExecution(queryClient: QueryClient, flowId: string, execution: Execution) {
  storeExecution(queryClient, execution);
  queryClient.setQueryData(latestExecutionQueryKey(flowId), execution);
}

export const executionQueryOptions = (executionId: string, queryClient: QueryClient) =>
  queryOptions<Execution>({
    queryKey: executionQueryKey(executionId),
    queryFn: async ({ signal }) => {
      const polled: Execution = answerOf(
        await client.GET('/api/executions/{id}', { params: { path: { id: executionId } }, signal }),
      );
      // A poll that started before a pushed event was applied must not take the state back.
      return newerExecution(queryClient.getQueryData<Execution>(executionQueryKey(executionId)), polled);
    },
    refetchInterval: EXECUTION_POLL_MS,
    refetchOnWindowFocus: true,
  });

/** The flow's latest execution, which the run screen works on; null until one is started. */
export function useLatestExecution(flowId: string, queryClient: QueryClient) {
  return useQuery({
    queryKey: latestExecutionQueryKey(flowId),
    queryFn: async ({ signal }) => {
      const execution: Execution | null = answerOf(
        await client.GET('/api/flows/{flowId}/executions/latest', { params: { path: { flowId } }, signal }),
      );
      if (execution) storeExecution(queryClient, execution);
      return execution;
    },
  });
}
