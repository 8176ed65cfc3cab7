import { queryOptions, useQuery } from '@tanstack/react-query';

/** A flow the workshop can open; the call (and its cache) is the flows list's own GET /api/flows. */
export interface WorkshopFlow {
  id: string;
  name: string;
  description: string;
  stepCount: number;
}

export const workshopFlowsQueryOptions = queryOptions<WorkshopFlow[]>({ queryKey: ['/api/flows'] });

export function useWorkshopFlows() {
  return useQuery(workshopFlowsQueryOptions);
}
