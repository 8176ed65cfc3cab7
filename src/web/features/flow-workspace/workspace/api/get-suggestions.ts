import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { type AnswerOf, answerOf, client, pageOf, type Unpaged } from '@/lib/api-client';
import { pagedListParams, pageQuery } from '@/lib/paged-list';

export type SuggestionRecord = Unpaged<AnswerOf<'/api/flows/{flowId}/suggestions'>>[number];

/** The flow's suggestion records, newest first, page by page as the dialog scrolls; read afresh each time it opens. */
export const suggestionsQueryOptions = (flowId: string) =>
  infiniteQueryOptions({
    queryKey: ['/api/flows', flowId, 'suggestions'],
    queryFn: async ({ pageParam, signal }) =>
      pageOf(
        answerOf(
          await client.GET('/api/flows/{flowId}/suggestions', {
            params: { path: { flowId }, query: pageQuery(pageParam) },
            signal,
          }),
        ),
      ),
    ...pagedListParams,
    staleTime: 0,
  });

export function useSuggestions(flowId: string, enabled: boolean) {
  return useInfiniteQuery({ ...suggestionsQueryOptions(flowId), enabled });
}
