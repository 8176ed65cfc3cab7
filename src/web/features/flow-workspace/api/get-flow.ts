import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Flow } from '../../../../domain/flow';

export const flowQueryOptions = (flowId: string) => queryOptions<Flow>({ queryKey: ['/api/flows', flowId] });

export function useFlow(flowId: string) {
  return useQuery(flowQueryOptions(flowId));
}
