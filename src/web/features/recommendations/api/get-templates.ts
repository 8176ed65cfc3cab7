import { queryOptions, useQuery } from '@tanstack/react-query';
import { type AnswerOf, answerOf, client, type Unpaged, unpaged } from '@/lib/api-client';

export type TemplateRecord = Unpaged<AnswerOf<'/api/templates'>>[number];

export const templatesQueryOptions = queryOptions({
  queryKey: ['/api/templates'],
  queryFn: async ({ signal }) => unpaged(answerOf(await client.GET('/api/templates', { signal }))),
});

export function useTemplates() {
  return useQuery(templatesQueryOptions);
}
