import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { type AnswerOf, answerOf, client } from '@/lib/api-client';

/** A session with its rows, as the web reads and shows it. */
export type MasterSessionWithSteps = AnswerOf<'/api/master-mode/session/{sessionId}'>;
/** One row of a session. */
export type MasterStep = MasterSessionWithSteps['steps'][number];

export const masterSessionQueryOptions = (sessionId: string) =>
  queryOptions({
    queryKey: ['/api/master-mode/session', sessionId],
    queryFn: async ({ signal }) =>
      answerOf(
        await client.GET('/api/master-mode/session/{sessionId}', { params: { path: { sessionId } }, signal }),
      ),
  });

/** The session; pushed events of its stream read it again (useLiveMasterSession), nothing polls it. */
export function useMasterSession(sessionId: string) {
  return useQuery(masterSessionQueryOptions(sessionId));
}

/** A session answered by a command replaces the cached one. */
export function storeMasterSession(queryClient: QueryClient, session: MasterSessionWithSteps) {
  queryClient.setQueryData(masterSessionQueryOptions(session.id).queryKey, session);
}
