import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { flowsQueryOptions } from '@/lib/flows-query';
import type { Flow } from '../../../../domain/flow';
import { readFlowAgainOnMismatch, writeOnReadVersion } from './flow-version';
import { flowQueryOptions, type ReadFlow } from './get-flow';

/** Saves the flow's name, description and status, on the version of the flow this tab last read. */
export async function updateFlow(
  queryClient: QueryClient,
  flow: Pick<Flow, 'id' | 'name' | 'description' | 'status'>,
): Promise<ReadFlow> {
  const { answer, version } = await writeOnReadVersion(queryClient, flow.id, (options) =>
    api.put<Flow>(
      `/api/flows/${flow.id}`,
      { name: flow.name, description: flow.description, status: flow.status },
      options,
    ),
  );
  return { ...answer, version };
}

export function useUpdateFlow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (flow: Pick<Flow, 'id' | 'name' | 'description' | 'status'>) => updateFlow(queryClient, flow),
    // Only the workspace's Save changes a flow, and its toast tells the failure.
    meta: { errorToast: false },
    onError: (error, flow) => readFlowAgainOnMismatch(queryClient, flow.id, error),
    onSuccess: (flow) => {
      queryClient.setQueryData(flowQueryOptions(flow.id).queryKey, flow);
      // The list shows name, status and dates of this flow.
      void queryClient.invalidateQueries({ queryKey: flowsQueryOptions.queryKey, exact: true });
    },
  });
}
