import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { type AnswerOf, answerOf, client } from '@/lib/api-client';
import { executionAtLeast, storeExecution, storeLatestExecution } from '@/lib/execution-query';
import type { Execution } from '@/lib/execution-stream';
import type { FailureToast } from '@/lib/failure-toast';
import { flowsQueryOptions } from '@/lib/flows-query';
import type { Step } from '@/lib/steps-query';
import { toasts } from '@/lib/strings';

/** The execution as the run left it, and the results it made. */
export interface RunStepAnswer {
  execution: Execution;
  results: AnswerOf<'/api/executions/{id}/steps/{stepId}/execute', 'post'>['results'];
}

/** Starting the execution failed, as opposed to running the step: the two have different toasts. */
export class ExecutionStartError extends Error {
  constructor(override readonly cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = 'ExecutionStartError';
  }
}

export const startExecution = async (flowId: string): Promise<Execution> =>
  answerOf(await client.POST('/api/flows/{flowId}/execute', { params: { path: { flowId } } }));

/** Starts an execution of the flow and makes it the latest one, the one the run screen works on. */
export async function startLatestExecution(queryClient: QueryClient, flowId: string): Promise<Execution> {
  let started: Execution;
  try {
    started = await startExecution(flowId);
  } catch (error) {
    throw new ExecutionStartError(error);
  }
  storeLatestExecution(queryClient, flowId, started);
  return started;
}

/**
 * Runs a step's pending work (that loop iteration when given). The server answers only the run's results and
 * the version the execution is at (`Prefer: return=minimal`): the rest comes as the execution's pushed events,
 * as every other change does, so a long execution is not sent again on every run.
 */
export async function runStepOfExecution(
  queryClient: QueryClient,
  executionId: string,
  stepId: string,
  userInput: string,
  loopIteration?: number,
): Promise<RunStepAnswer> {
  const answer = answerOf(
    await client.POST('/api/executions/{id}/steps/{stepId}/execute', {
      params: { path: { id: executionId, stepId }, header: { prefer: 'return=minimal' } },
      body: loopIteration === undefined ? { userInput } : { userInput, loopIteration },
    }),
  );
  if ('execution' in answer) {
    // The document allows the whole execution too (a server may pass over a preference): it is kept as it is.
    storeExecution(queryClient, answer.execution);
    return answer;
  }
  return {
    execution: await executionAtLeast(queryClient, executionId, answer.version),
    results: answer.results,
  };
}

/** An execution that would not start says so the same way wherever the run was asked for. */
const startFailedToast: FailureToast = {
  title: toasts.executionStartFailed,
  description: toasts.executionStartFailedText,
};

/**
 * Runs a step of the flow's latest execution, starting one first when there is none. The answer comes
 * when the run has ended; meanwhile pushed events and tokens show it live. A failed run is told with
 * `runFailedToast`, which differs between run mode and chat.
 */
export function useRunStep(flowId: string, execution: Execution | null, runFailedToast: FailureToast) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: {
      errorToast: (error) => (error instanceof ExecutionStartError ? startFailedToast : runFailedToast),
    },
    mutationFn: async ({
      step,
      userInput,
      loopIteration,
    }: {
      step: Step;
      userInput: string;
      /** The loop iteration of an 'Execute (lần N)' button; none: the step's first pending work. */
      loopIteration?: number;
    }) => {
      const executionId = execution?.id ?? (await startLatestExecution(queryClient, flowId)).id;
      return runStepOfExecution(queryClient, executionId, step.id, userInput, loopIteration);
    },
    onSettled: () => {
      // The list shows when each flow last ran.
      void queryClient.invalidateQueries({ queryKey: flowsQueryOptions.queryKey, exact: true });
    },
  });
}
