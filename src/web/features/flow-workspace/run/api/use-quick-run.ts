import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useActorRef } from '@xstate/react';
import { useEffect, useState } from 'react';
import { type ActorRefFrom, fromPromise } from 'xstate';
import { runStepOfExecution, startLatestExecution } from '@/features/flow-workspace/api/run-step';
import { executionQueryKey } from '@/lib/execution-query';
import type { Execution } from '@/lib/execution-stream';
import { flowsQueryOptions } from '@/lib/flows-query';
import { toasts } from '@/lib/strings';
import { quickRunMachine, type RunStepInput, type RunStepOutput } from '../../../../../machines/quick-run';

export type QuickRunActor = ActorRefFrom<typeof quickRunMachine>;

/**
 * QuickRun for the flow's latest execution: the machine runs steps through the same call as a step's
 * Execute and follows the execution as push and polling keep it current.
 */
export function useQuickRun(flowId: string, execution: Execution | null) {
  const queryClient = useQueryClient();
  const [machine] = useState(() =>
    quickRunMachine.provide({
      actors: {
        runStep: fromPromise<RunStepOutput, RunStepInput>(async ({ input }) => {
          try {
            const answer = await runStepOfExecution(
              queryClient,
              input.executionId,
              input.stepId,
              input.userInput,
              input.loopIteration,
            );
            return { execution: answer.execution };
          } finally {
            // The list shows when each flow last ran.
            void queryClient.invalidateQueries({ queryKey: flowsQueryOptions.queryKey, exact: true });
          }
        }),
      },
      actions: {
        refreshExecution: ({ context }) => {
          if (!context.execution) return;
          void queryClient.invalidateQueries({
            queryKey: executionQueryKey(context.execution.id),
            exact: true,
          });
        },
      },
    }),
  );
  const quickRun = useActorRef(machine);

  useEffect(() => {
    if (execution) quickRun.send({ type: 'EXECUTION_UPDATED', execution });
  }, [quickRun, execution]);

  // Execute All on a flow never run yet starts its execution first, as a step's Execute does.
  const executeAll = useMutation({
    mutationFn: async () => execution ?? (await startLatestExecution(queryClient, flowId)),
    meta: {
      errorToast: { title: toasts.executionStartFailed, description: toasts.executionStartFailedText },
    },
    onSuccess: (started) => quickRun.send({ type: 'EXECUTE_ALL', execution: started }),
  });

  return { quickRun, executeAll };
}
