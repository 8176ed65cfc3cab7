import { queryOptions, useQuery } from '@tanstack/react-query';

/** A flow as the session dialog offers it; the list is the same call (and cache) as the flows list. */
export interface FlowChoice {
  id: string;
  name: string;
}

export const flowChoicesQueryOptions = queryOptions<FlowChoice[]>({ queryKey: ['/api/flows'] });

export function useFlowChoices(enabled: boolean) {
  return useQuery({ ...flowChoicesQueryOptions, enabled });
}
