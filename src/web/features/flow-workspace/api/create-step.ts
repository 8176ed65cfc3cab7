import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Step } from '../../../../domain/flow';
import { api } from '../../../lib/api-client';
import { runMode } from '../../../lib/strings';
import { stepsQueryOptions } from './get-steps';

/** Spec §7: a new step is 'New Step {n}' at order count + 1 with every other field at its default. */
export function newStepBody(flowId: string, existingCount: number) {
  const n = existingCount + 1;
  return {
    flowId,
    name: runMode.newStepName(n),
    order: n,
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

export function useCreateStep(flowId: string) {
  const queryClient = useQueryClient();
  const key = stepsQueryOptions(flowId).queryKey;
  return useMutation({
    mutationFn: () =>
      api.post<Step>('/api/steps', newStepBody(flowId, queryClient.getQueryData(key)?.length ?? 0)),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: key });
      // The list's step count changed.
      void queryClient.invalidateQueries({ queryKey: ['/api/flows'], exact: true });
    },
  });
}
