import { queryOptions, useQuery } from '@tanstack/react-query';

/** What the fast list shows of a flow; the call (and its cache) is the flows list's own GET /api/flows. */
export interface FastFlowItem {
  id: string;
  name: string;
  description: string;
  stepCount: number;
  status: string;
}

export const fastFlowsQueryOptions = queryOptions<FastFlowItem[]>({ queryKey: ['/api/flows'] });

export function useFastFlows() {
  return useQuery(fastFlowsQueryOptions);
}
