import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { type AnswerOf, answerOf, client, pageOf, type Unpaged } from '@/lib/api-client';
import { pagedListParams, pageQuery } from '@/lib/paged-list';

/** A saved session: the flow (with its name while it exists), execution and mode it brings the user back to. */
export type UserSession = Unpaged<AnswerOf<'/api/user-sessions'>>[number];

/** The user's saved sessions, page by page as the list scrolls. */
export const userSessionsQueryOptions = infiniteQueryOptions({
  queryKey: ['/api/user-sessions'],
  queryFn: async ({ pageParam, signal }) =>
    pageOf(
      answerOf(await client.GET('/api/user-sessions', { params: { query: pageQuery(pageParam) }, signal })),
    ),
  ...pagedListParams,
});

export function useUserSessions() {
  return useInfiniteQuery(userSessionsQueryOptions);
}
