import type { QueryClient } from '@tanstack/react-query';
import type { WorkflowProposal } from '../../../../domain/ai-flow-creator';
import type { Flow } from '../../../../domain/flow';
import { api } from '../../../lib/api-client';
import { flowsQueryOptions } from '../../../lib/flows-query';

/** Creates a flow, with its steps, from the proposal; the flows list is read again. */
export async function saveWorkflow(queryClient: QueryClient, proposal: WorkflowProposal): Promise<Flow> {
  const flow = await api.post<Flow>('/api/ai/create-from-json', { workflowJSON: proposal });
  await queryClient.invalidateQueries({ queryKey: flowsQueryOptions.queryKey, exact: true });
  return flow;
}
