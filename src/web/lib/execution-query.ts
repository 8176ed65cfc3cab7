import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { answerOf, client } from '@/lib/api-client';
import { executionSocket } from '@/lib/execution-socket';
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

/**
 * The cached execution once it reflects `version` (a command's answer named it). Its pushed events usually
 * bring it there first; with no socket delivering them it is read at once. Polling, while it is shown, is the
 * net under both.
 */
export function executionAtLeast(
  queryClient: QueryClient,
  executionId: string,
  version: number,
): Promise<Execution> {
  const key = executionQueryKey(executionId);
  const reached = () => {
    const cached = queryClient.getQueryData<Execution>(key);
    return cached !== undefined && cached.version >= version ? cached : null;
  };
  const now = reached();
  if (now) return Promise.resolve(now);
  return new Promise<Execution>((resolve, reject) => {
    const stop = queryClient.getQueryCache().subscribe(() => {
      const execution = reached();
      if (!execution) return;
      stop();
      resolve(execution);
    });
    if (executionSocket().delivering({ executionId })) return;
    queryClient.fetchQuery({ ...executionQueryOptions(executionId, queryClient), staleTime: 0 }).then(
      (read) => {
        // The read may have been answered before the command's commit reached it: the poll goes on.
        if (read.version >= version) {
          stop();
          resolve(reached() ?? read);
        }
      },
      (error: unknown) => {
        stop();
        reject(error);
      },
    );
  });
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
