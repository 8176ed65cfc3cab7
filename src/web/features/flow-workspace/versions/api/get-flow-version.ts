import { queryOptions, useQuery } from '@tanstack/react-query';
import { type AnswerOf, answerOf, client } from '@/lib/api-client';

/** The flow and its steps, in order, as they stood at one version. */
export type FlowVersionView = AnswerOf<'/api/flows/{id}/versions/{version}'>;

export const flowVersionQueryOptions = (flowId: string, version: number) =>
  queryOptions({
    queryKey: ['/api/flows', flowId, 'versions', version],
    queryFn: async ({ signal }) =>
      answerOf(
        await client.GET('/api/flows/{id}/versions/{version}', {
          params: { path: { id: flowId, version } },
          signal,
        }),
      ),
    // A version never changes once made.
    staleTime: Number.POSITIVE_INFINITY,
  });

export function useFlowVersion(flowId: string, version: number | null) {
  return useQuery({ ...flowVersionQueryOptions(flowId, version ?? 0), enabled: version !== null });
}
