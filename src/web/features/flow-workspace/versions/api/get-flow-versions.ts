import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ShownExecutionStatus } from '../../../../../domain/execution/types';

/** An execution as a version names it: one that started from that version. */
export interface VersionExecution {
  id: string;
  status: ShownExecutionStatus;
  startedAt: string;
}

/** One version of a flow: a change of the flow or its steps, who made it and when; oldest first. */
export interface FlowVersion {
  version: number;
  summary: string;
  /** Who made it; no name when the user is gone. */
  actor: { userId: string | null; name: string | null };
  at: string;
  executions: VersionExecution[];
}

export const flowVersionsQueryOptions = (flowId: string) =>
  queryOptions<FlowVersion[]>({
    queryKey: ['/api/flows', flowId, 'versions'],
    // Every edit in the workspace adds a version: each opening reads the list again.
    staleTime: 0,
  });

export function useFlowVersions(flowId: string) {
  return useQuery(flowVersionsQueryOptions(flowId));
}
