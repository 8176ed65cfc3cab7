import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ErrorToastMeta } from '@/lib/failure-toast';
import type { Step, UpdateStepInput } from '../../../../domain/flow';
import { stepsQueryOptions } from './get-steps';

export const updateStep = (stepId: string, changes: UpdateStepInput) =>
  api.put<Step>(`/api/steps/${stepId}`, changes);

/** Each place that changes a step words its failure its own way. */
export function useUpdateStep(flowId: string, errorToast: ErrorToastMeta) {
  const queryClient = useQueryClient();
  const key = stepsQueryOptions(flowId).queryKey;
  return useMutation({
    mutationFn: ({ stepId, changes }: { stepId: string; changes: UpdateStepInput }) =>
      updateStep(stepId, changes),
    meta: { errorToast },
    onSuccess: (step) => {
      queryClient.setQueryData(key, (steps) => steps?.map((s) => (s.id === step.id ? step : s)));
      void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}
