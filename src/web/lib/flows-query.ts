import { queryOptions, useQuery } from '@tanstack/react-query';

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
