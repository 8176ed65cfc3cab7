import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ShownExecutionStatus } from '../../../../../domain/execution/types';

/** An execution as the flow's list names it; the newest comes first. */
export interface FlowExecution {
  id: string;
  status: ShownExecutionStatus;
  startedAt: string;
}

export const flowExecutionsQueryOptions = (flowId: string) =>
  queryOptions<FlowExecution[]>({ queryKey: ['/api/flows', flowId, 'executions'], staleTime: 0 });

export function useFlowExecutions(flowId: string, enabled: boolean) {
  return useQuery({ ...flowExecutionsQueryOptions(flowId), enabled });
}
