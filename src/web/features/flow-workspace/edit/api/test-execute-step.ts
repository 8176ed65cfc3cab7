import { useMutation, useQueryClient } from '@tanstack/react-query';
import { runStepOfExecution } from '@/features/flow-workspace/api/run-step';
import { flowsQueryOptions } from '@/lib/flows-query';
import { toasts } from '@/lib/strings';

/**
 * Test Execution in edit mode: runs a step on the flow's latest execution as it is. Unlike run mode it
 * never starts an execution; without one there is nothing to test on.
 */
export function useTestExecuteStep() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      executionId,
      stepId,
      userInput,
    }: {
      executionId: string;
      stepId: string;
      userInput: string;
    }) => runStepOfExecution(queryClient, executionId, stepId, userInput),
    meta: { errorToast: { title: toasts.executionFailed, messageOr: toasts.executeStepFailed } },
    onSettled: () => {
      // The list shows when each flow last ran.
      void queryClient.invalidateQueries({ queryKey: flowsQueryOptions.queryKey, exact: true });
    },
  });
}
