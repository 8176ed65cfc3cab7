import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type BodyOf, client } from '@/lib/api-client';
import type { ErrorToastMeta } from '@/lib/failure-toast';
import { stepsQueryOptions } from '@/lib/steps-query';
import { readFlowAgainOnMismatch, sayingVersionMismatch, writeOnReadVersion } from './flow-version';

export type StepChanges = BodyOf<'/api/steps/{id}', 'put'>;

/** Each place that changes a step words its failure its own way; a version mismatch is said the same everywhere. */
export function useUpdateStep(flowId: string, errorToast: ErrorToastMeta) {
  const queryClient = useQueryClient();
  const key = stepsQueryOptions(flowId).queryKey;
  return useMutation({
    mutationFn: async ({ stepId, changes }: { stepId: string; changes: StepChanges }) =>
      (
        await writeOnReadVersion(queryClient, flowId, (headers) =>
          client.PUT('/api/steps/{id}', { params: { path: { id: stepId } }, body: changes, headers }),
        )
      ).answer,
    meta: { errorToast: sayingVersionMismatch(errorToast) },
    onError: (error) => readFlowAgainOnMismatch(queryClient, flowId, error),
    onSuccess: (step) => {
      queryClient.setQueryData(key, (steps) => steps?.map((s) => (s.id === step.id ? step : s)));
      void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}
