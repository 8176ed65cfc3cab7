import { useMutation, useQueryClient } from '@tanstack/react-query';
import { answerOf, client } from '@/lib/api-client';
import { flowQueryOptions } from '@/lib/flow-query';
import { flowsQueryOptions } from '@/lib/flows-query';
import { type Step, stepsQueryOptions } from '@/lib/steps-query';
import { runMode, toasts } from '@/lib/strings';

/**
 * A new step is 'New Step {n}' at order count + 1 with every other field at its default. After a
 * step was deleted the orders have a gap; the new step then goes after the last one (orders are never
 * shared, and `[[step-N]]` references of the remaining steps keep pointing where they did).
 */
export function newStepBody(flowId: string, existing: readonly Pick<Step, 'order'>[]) {
  const n = existing.length + 1;
  return {
    flowId,
    name: runMode.newStepName(n),
    order: Math.max(n, ...existing.map((step) => step.order + 1)),
    systemPrompt: runMode.newStepPrompt,
    outputMode: 'single' as const,
    inputSources: [],
    choices: [],
    loopTargetStepId: null,
    maxLoopIterations: 1,
    currentLoopIteration: 0,
    requiresUserInput: false,
  };
}

/** Adds a step at the end of the flow. */
export function useCreateStep(flowId: string) {
  const queryClient = useQueryClient();
  const key = stepsQueryOptions(flowId).queryKey;
  return useMutation({
    mutationFn: async () =>
      answerOf(
        await client.POST('/api/steps', { body: newStepBody(flowId, queryClient.getQueryData(key) ?? []) }),
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: key });
      // A new version of the flow: the next change of it is made on that version (If-Match).
      void queryClient.invalidateQueries({ queryKey: flowQueryOptions(flowId).queryKey, exact: true });
      // The list's step count changed.
      void queryClient.invalidateQueries({ queryKey: flowsQueryOptions.queryKey, exact: true });
    },
    meta: { errorToast: { messageOr: toasts.addStepFailed } },
  });
}
