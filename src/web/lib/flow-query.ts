import { queryOptions, useQuery } from '@tanstack/react-query';
import { type AnswerOf, answerOf, client } from '@/lib/api-client';
import { versionOfEntityTag } from '@/lib/entity-tag';

export type Flow = AnswerOf<'/api/flows/{id}'>;

/** The flow as this tab read it, with the version its ETag named (null: none answered). */
export type ReadFlow = Flow & { version: number | null };

export const flowQueryOptions = (flowId: string) =>
  queryOptions<ReadFlow>({
    queryKey: ['/api/flows', flowId],
    queryFn: async ({ signal }) => {
      const answered = await client.GET('/api/flows/{id}', { params: { path: { id: flowId } }, signal });
      return { ...answerOf(answered), version: versionOfEntityTag(answered.response.headers.get('etag')) };
    },
  });

export function useFlow(flowId: string) {
  return useQuery(flowQueryOptions(flowId));
}
