import { useMutation, useQueryClient } from '@tanstack/react-query';
import { answerOf, client } from '@/lib/api-client';
import { storeExecution } from '@/lib/execution-query';
import type { Execution } from '@/lib/execution-stream';
import { toasts } from '@/lib/strings';

export const stopExecution = async (executionId: string): Promise<Execution> =>
  answerOf(
    await client.POST('/api/executions/{id}/stop', {
      params: { path: { id: executionId } },
    }),
  );
export const resetExecution = async (executionId: string): Promise<Execution> =>
  answerOf(
    await client.POST('/api/executions/{id}/reset', {
      params: { path: { id: executionId } },
    }),
  );

export function useStopExecution() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: stopExecution,
    meta: { errorToast: { description: toasts.stopFailed } },
    onSuccess: (execution) => storeExecution(queryClient, execution),
  });
}

export function useResetExecution() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetExecution,
    meta: { errorToast: { title: toasts.resetFailedTitle, messageOr: toasts.resetFailed } },
    onSuccess: (execution) => storeExecution(queryClient, execution),
  });
}
