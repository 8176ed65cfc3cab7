import { queryOptions, useQuery } from '@tanstack/react-query';
import { type AnswerOf, answerOf, client, type Unpaged, unpaged } from '@/lib/api-client';

/** A saved session: the flow (with its name while it exists), execution and mode it brings the user back to. */
export type UserSession = Unpaged<AnswerOf<'/api/user-sessions'>>[number];

export const userSessionsQueryOptions = queryOptions({
  queryKey: ['/api/user-sessions'],
  queryFn: async ({ signal }) => unpaged(answerOf(await client.GET('/api/user-sessions', { signal }))),
});

export function useUserSessions() {
  return useQuery(userSessionsQueryOptions);
}
