import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MasterSession } from '../../../../domain/master-mode/master-session';
import { api } from '../../../lib/api-client';

export type MasterSessionListItem = MasterSession & { stepCount: number };

/** The user's master mode sessions made from a flow, the one used last first. */
export const flowMasterSessionsQueryOptions = (flowId: string) =>
  queryOptions<MasterSessionListItem[]>({
    queryKey: ['/api/master-mode/sessions', { flowId }],
    queryFn: () =>
      api.get<MasterSessionListItem[]>(`/api/master-mode/sessions?flowId=${encodeURIComponent(flowId)}`),
  });

export function useFlowMasterSessions(flowId: string) {
  return useQuery(flowMasterSessionsQueryOptions(flowId));
}
