import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { client } from '@/lib/api-client';
import { type Flow, flowQueryOptions, type ReadFlow } from '@/lib/flow-query';
import { settableStatus } from '@/lib/flow-status';
import { flowsQueryOptions } from '@/lib/flows-query';
import { readFlowAgainOnMismatch, writeOnReadVersion } from './flow-version';

/** What Save sends of the flow. */
type FlowChanges = Pick<Flow, 'id' | 'name' | 'description' | 'status'>;

/** Saves the flow's name, description and status, on the version of the flow this tab last read. */
export async function updateFlow(queryClient: QueryClient, flow: FlowChanges): Promise<ReadFlow> {
  const { answer, version } = await writeOnReadVersion(queryClient, flow.id, (headers) =>
    client.PUT('/api/flows/{id}', {
      params: { path: { id: flow.id } },
      body: { name: flow.name, description: flow.description, status: settableStatus(flow.status) },
      headers,
    }),
  );
  return { ...answer, version };
}

export function useUpdateFlow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (flow: FlowChanges) => updateFlow(queryClient, flow),
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
