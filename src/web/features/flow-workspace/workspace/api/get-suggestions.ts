import { queryOptions, useQuery } from '@tanstack/react-query';
import { type AnswerOf, answerOf, client, type Unpaged, unpaged } from '@/lib/api-client';

export type SuggestionRecord = Unpaged<AnswerOf<'/api/flows/{flowId}/suggestions'>>[number];

/** The flow's suggestion records, newest first; read afresh each time the dialog opens. */
export const suggestionsQueryOptions = (flowId: string) =>
  queryOptions({
    queryKey: ['/api/flows', flowId, 'suggestions'],
    queryFn: async ({ signal }) =>
      unpaged(
        answerOf(
          await client.GET('/api/flows/{flowId}/suggestions', { params: { path: { flowId } }, signal }),
        ),
      ),
    staleTime: 0,
  });

export function useSuggestions(flowId: string, enabled: boolean) {
  return useQuery({ ...suggestionsQueryOptions(flowId), enabled });
}
