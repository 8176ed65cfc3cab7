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

/** Case-insensitive substring of name or description (spec §2, search box). */
export function matchesSearch(flow: Pick<FlowListItem, 'name' | 'description'>, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return flow.name.toLowerCase().includes(needle) || (flow.description ?? '').toLowerCase().includes(needle);
}
