import { queryOptions, useQuery } from '@tanstack/react-query';
import { type AnswerOf, answerOf, client } from '@/lib/api-client';

/** A step of a flow as the API answers it. */
export type Step = AnswerOf<'/api/flows/{flowId}/steps'>[number];

export const stepsQueryOptions = (flowId: string) =>
  queryOptions({
    queryKey: ['/api/flows', flowId, 'steps'],
    queryFn: async ({ signal }) =>
      answerOf(await client.GET('/api/flows/{flowId}/steps', { params: { path: { flowId } }, signal })),
  });

export function useSteps(flowId: string) {
  return useQuery(stepsQueryOptions(flowId));
}
