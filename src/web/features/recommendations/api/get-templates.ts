import { queryOptions, useQuery } from '@tanstack/react-query';
import { type AnswerOf, answerOf, client } from '@/lib/api-client';

export type TemplateRecord = AnswerOf<'/api/templates'>[number];

export const templatesQueryOptions = queryOptions({
  queryKey: ['/api/templates'],
  queryFn: async ({ signal }) => answerOf(await client.GET('/api/templates', { signal })),
});

export function useTemplates() {
  return useQuery(templatesQueryOptions);
}
