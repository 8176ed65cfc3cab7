import { queryOptions, useQuery } from '@tanstack/react-query';

/** A flow as the start page offers it: name and step count. */
export interface WorkflowChoice {
  id: string;
  name: string;
  description: string;
  stepCount: number;
}

/** The same call (and cache entry) as the flows list. */
export const workflowsQueryOptions = queryOptions<WorkflowChoice[]>({ queryKey: ['/api/flows'] });

export function useWorkflows() {
  return useQuery(workflowsQueryOptions);
}
