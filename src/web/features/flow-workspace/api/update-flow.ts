import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { flowsQueryOptions } from '@/lib/flows-query';
import type { Flow } from '../../../../domain/flow';
import { flowQueryOptions } from './get-flow';

export const updateFlow = (flow: Pick<Flow, 'id' | 'name' | 'description' | 'status'>) =>
  api.put<Flow>(`/api/flows/${flow.id}`, {
    name: flow.name,
    description: flow.description,
    status: flow.status,
  });

export function useUpdateFlow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateFlow,
    // Only the workspace's Save changes a flow, and its toast tells the failure.
    meta: { errorToast: false },
    onSuccess: (flow) => {
      queryClient.setQueryData(flowQueryOptions(flow.id).queryKey, flow);
      // The list shows name, status and dates of this flow.
      void queryClient.invalidateQueries({ queryKey: flowsQueryOptions.queryKey, exact: true });
    },
  });
}
