import { useMutation, useQueryClient } from '@tanstack/react-query';
import { answerOf, type BodyOf, client } from '@/lib/api-client';
import { type FlowListItem, flowsQueryOptions, workspaceFlowsQueryOptions } from '@/lib/flows-query';
import { toasts } from '@/lib/strings';

export type CreateFlowInput = BodyOf<'/api/flows', 'post'>;

export const createFlow = async (input: CreateFlowInput) =>
  answerOf(await client.POST('/api/flows', { body: input }));

/**
 * The created flow is appended to the cached list it belongs to (the user's own, or its workspace's); the
 * flows list's pages are read again.
 */
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
        userId: flow.userId,
        reviewRules: false,
        createdAt: flow.createdAt,
        updatedAt: flow.updatedAt,
      };
      if (flow.workspaceId) {
        void queryClient.invalidateQueries({
          queryKey: workspaceFlowsQueryOptions(flow.workspaceId).queryKey,
        });
      } else {
        queryClient.setQueryData(flowsQueryOptions.queryKey, (flows) => [...(flows ?? []), item]);
      }
      // The flows list's pages are read again from the first: the new flow sorts first.
      void queryClient.invalidateQueries({ queryKey: [...flowsQueryOptions.queryKey, 'pages'] });
    },
  });
}
