import { queryOptions, useQuery } from '@tanstack/react-query';

/** A flow as the list shows it. */
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
