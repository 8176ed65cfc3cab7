import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import type { Flow } from '../../domain/flow';
import type { WorkflowJsonOrigin } from '../../domain/flow/events';
import { api } from './api-client';

/**
 * A flow as GET /api/flows lists it. Every screen that lists or offers flows (the flows list, the fast
 * and static lists, the workshop, master mode, the session dialog) reads this one query and cache entry,
 * and every screen that makes a flow invalidates it.
 */
export interface FlowListItem {
  id: string;
  name: string;
  description: string;
  stepCount: number;
  status: string;
  lastRun: string | null;
  createdAt: string;
  updatedAt: string;
}

export const flowsQueryOptions = queryOptions<FlowListItem[]>({ queryKey: ['/api/flows'] });

export function useFlows() {
  return useQuery(flowsQueryOptions);
}

/**
 * Creates a flow and its steps from Workflow JSON (the AI Creator's import and generation, the AI Flow
 * Creator's proposal); the flows list is read again to show it.
 */
export async function createFlowFromJson(
  queryClient: QueryClient,
  workflowJSON: unknown,
  origin: WorkflowJsonOrigin,
): Promise<Flow> {
  const flow = await api.post<Flow>('/api/ai/create-from-json', { workflowJSON, origin });
  await queryClient.invalidateQueries({ queryKey: flowsQueryOptions.queryKey, exact: true });
  return flow;
}
