import { queryOptions, useQuery } from '@tanstack/react-query';
import { type AnswerOf, answerOf, client, type Unpaged, unpaged } from '@/lib/api-client';

/** An own API key as its owner sees it: never the key itself. */
export type ApiKey = Unpaged<AnswerOf<'/api/user/api-keys'>>[number];

// This read is never retried: a 401 here means signed out, at once.
export const apiKeysQueryOptions = queryOptions({
  queryKey: ['/api/user/api-keys'],
  queryFn: async ({ signal }) => unpaged(answerOf(await client.GET('/api/user/api-keys', { signal }))),
  retry: false,
});

export function useApiKeys() {
  return useQuery(apiKeysQueryOptions);
}
