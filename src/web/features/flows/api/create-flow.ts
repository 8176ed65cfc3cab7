import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { type FlowListItem, flowsQueryOptions } from '@/lib/flows-query';
import { toasts } from '@/lib/strings';
import type { Flow } from '../../../../domain/flow';

export interface CreateFlowInput {
  name: string;
  description: string;
  status?: string;
}

export const createFlow = (input: CreateFlowInput) => api.post<Flow>('/api/flows', input);

/** The created flow is appended to the cached list rather than refetching it. */
export function useCreateFlow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createFlow,
    meta: { errorToast: { messageOr: toasts.flowCreateFailed } },
    onSuccess: (flow) => {
      const item: FlowListItem = {
        id: flow.id,
        name: flow.name,
        description: flow.description,
        status: flow.status,
        stepCount: 0,
        lastRun: null,
        createdAt: flow.createdAt,
        updatedAt: flow.updatedAt,
      };
      queryClient.setQueryData(flowsQueryOptions.queryKey, (flows) => [...(flows ?? []), item]);
    },
  });
}
