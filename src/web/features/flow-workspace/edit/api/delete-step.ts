import { useMutation, useQueryClient } from '@tanstack/react-query';
import { stepsQueryOptions } from '@/features/flow-workspace/api/get-steps';
import { api } from '@/lib/api-client';
import { flowsQueryOptions } from '@/lib/flows-query';
import { toasts } from '@/lib/strings';

export const deleteStep = (stepId: string) => api.delete(`/api/steps/${stepId}`);

/** Removes a step from its flow; later steps stop taking input from it (the server sees to that). */
export function useDeleteStep(flowId: string) {
  const queryClient = useQueryClient();
  const key = stepsQueryOptions(flowId).queryKey;
  return useMutation({
    mutationFn: deleteStep,
    meta: { errorToast: { description: toasts.stepDeleteFailed } },
    onSuccess: (_answer, stepId) => {
      queryClient.setQueryData(key, (steps) => steps?.filter((s) => s.id !== stepId));
      void queryClient.invalidateQueries({ queryKey: key });
      // The list's step count changed.
      void queryClient.invalidateQueries({ queryKey: flowsQueryOptions.queryKey, exact: true });
    },
  });
}
