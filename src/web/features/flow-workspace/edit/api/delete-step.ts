import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  readFlowAgainOnMismatch,
  sayingVersionMismatch,
  writeOnReadVersion,
} from '@/features/flow-workspace/api/flow-version';
import { client } from '@/lib/api-client';
import { flowsQueryOptions } from '@/lib/flows-query';
import { stepsQueryOptions } from '@/lib/steps-query';
import { toasts } from '@/lib/strings';

/** Removes a step from its flow; later steps stop taking input from it (the server sees to that). */
export function useDeleteStep(flowId: string) {
  const queryClient = useQueryClient();
  const key = stepsQueryOptions(flowId).queryKey;
  return useMutation({
    mutationFn: (stepId: string) =>
      writeOnReadVersion(queryClient, flowId, (headers) =>
        client.DELETE('/api/steps/{id}', { params: { path: { id: stepId } }, headers }),
      ),
    meta: { errorToast: sayingVersionMismatch({ description: toasts.stepDeleteFailed }) },
    onError: (error) => readFlowAgainOnMismatch(queryClient, flowId, error),
    onSuccess: (_answer, stepId) => {
      queryClient.setQueryData(key, (steps) => steps?.filter((s) => s.id !== stepId));
      void queryClient.invalidateQueries({ queryKey: key });
      // The list's step count changed.
      void queryClient.invalidateQueries({ queryKey: flowsQueryOptions.queryKey, exact: true });
    },
  });
}
