import { queryOptions, useQuery } from '@tanstack/react-query';
import { type AnswerOf, answerOf, client, type Unpaged, unpaged } from '@/lib/api-client';

export type PatternRecord = Unpaged<AnswerOf<'/api/patterns'>>[number];

export const patternsQueryOptions = queryOptions({
  queryKey: ['/api/patterns'],
  queryFn: async ({ signal }) => unpaged(answerOf(await client.GET('/api/patterns', { signal }))),
});

export function usePatterns() {
  return useQuery(patternsQueryOptions);
}
