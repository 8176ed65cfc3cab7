import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Flow, Step } from '../../../../../domain/flow';

/** The flow and its steps, in order, as they stood at one version. */
export interface FlowVersionView {
  version: number;
  flow: Flow;
  steps: Step[];
}

export const flowVersionQueryOptions = (flowId: string, version: number) =>
  queryOptions<FlowVersionView>({
    queryKey: ['/api/flows', flowId, 'versions', version],
    // A version never changes once made.
    staleTime: Number.POSITIVE_INFINITY,
  });

export function useFlowVersion(flowId: string, version: number | null) {
  return useQuery({ ...flowVersionQueryOptions(flowId, version ?? 0), enabled: version !== null });
}
