import { useMutation, useQueryClient } from '@tanstack/react-query';
import { rerunFromStep as t } from '@/features/flow-workspace/strings';
import { answerOf, client } from '@/lib/api-client';
import { storeLatestExecution } from '@/lib/execution-query';
import type { Execution } from '@/lib/execution-stream';
import { flowsQueryOptions } from '@/lib/flows-query';

export const rerunFromStep = async (executionId: string, stepId: string): Promise<Execution> =>
  answerOf(
    await client.POST('/api/executions/{id}/rerun-from/{stepId}', {
      params: { path: { id: executionId, stepId } },
    }),
  );

/**
 * Starts a new execution that reuses the approved results of the steps before the chosen one; it becomes
 * the flow's latest, the one the run screen works on.
 */
export function useRerunFromStep(flowId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ executionId, stepId }: { executionId: string; stepId: string }) =>
      rerunFromStep(executionId, stepId),
    meta: { errorToast: { title: t.failed, messageOr: t.failed } },
    onSuccess: (execution) => {
      storeLatestExecution(queryClient, flowId, execution);
      // The list shows when each flow last ran.
      void queryClient.invalidateQueries({ queryKey: flowsQueryOptions.queryKey, exact: true });
    },
  });
}
