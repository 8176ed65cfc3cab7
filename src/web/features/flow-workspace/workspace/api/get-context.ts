import { queryOptions, useQuery } from '@tanstack/react-query';
import { type AnswerOf, answerOf, client } from '@/lib/api-client';

/** The flow's conversation context (null until the user writes notes or a run makes one). */
export type ConversationContextView = NonNullable<AnswerOf<'/api/flows/{flowId}/context'>>;

/** Every run and every deleted result changes the context, so it is read afresh each time it is shown. */
export const contextQueryOptions = (flowId: string) =>
  queryOptions({
    queryKey: ['/api/flows', flowId, 'context'],
    queryFn: async ({ signal }) =>
      answerOf(await client.GET('/api/flows/{flowId}/context', { params: { path: { flowId } }, signal })),
    staleTime: 0,
  });

export function useConversationContext(flowId: string, enabled: boolean) {
  return useQuery({ ...contextQueryOptions(flowId), enabled });
}
