import type { QueryClient } from '@tanstack/react-query';
import type { Flow } from '../../../../domain/flow';
import { api } from '../../../lib/api-client';
import { flowsQueryOptions } from '../../../lib/flows-query';

/** Creates a flow and its steps from Workflow JSON; the flows list is read again to show it. */
export async function createFromJson(queryClient: QueryClient, workflowJSON: unknown): Promise<Flow> {
  const flow = await api.post<Flow>('/api/ai/create-from-json', { workflowJSON });
  await queryClient.invalidateQueries({ queryKey: flowsQueryOptions.queryKey, exact: true });
  return flow;
}
