import { useMutation, useQueryClient } from '@tanstack/react-query';
import { storeExecution } from '@/features/flow-workspace/api/get-execution';
import { api } from '@/lib/api-client';
import type { Execution } from '@/lib/execution-stream';
import { toasts } from '@/lib/strings';

export const stopExecution = (executionId: string) =>
  api.post<Execution>(`/api/executions/${executionId}/stop`);
export const resetExecution = (executionId: string) =>
  api.post<Execution>(`/api/executions/${executionId}/reset`);

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
