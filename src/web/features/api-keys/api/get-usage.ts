import { queryOptions, useQuery } from '@tanstack/react-query';
import { type AnswerOf, answerOf, client } from '@/lib/api-client';

/** remainingSteps -1: unlimited. */
export type Usage = AnswerOf<'/api/user/usage'>;

export const usageQueryOptions = queryOptions({
  queryKey: ['/api/user/usage'],
  queryFn: async ({ signal }) => answerOf(await client.GET('/api/user/usage', { signal })),
  // This read is never retried, whatever the defaults become.
  retry: false,
  // Step runs elsewhere change it; opening the page shows the count as it is now.
  refetchOnMount: 'always',
});

export function useUsage() {
  return useQuery(usageQueryOptions);
}
