import { useMutation } from '@tanstack/react-query';
import { type AnswerOf, answerOf, client } from '@/lib/api-client';
import { sessions as t } from '../strings';

/** Where the page reloads into: the session's flow workspace in its mode, or the flows list. */
export type LoadedUserSession = AnswerOf<'/api/user-sessions/{id}/load', 'post'>;

export const loadUserSession = async (sessionId: string) =>
  answerOf(
    await client.POST('/api/user-sessions/{id}/load', {
      params: { path: { id: sessionId } },
    }),
  );

/** Nothing to refresh: the page reloads right after. */
export function useLoadUserSession() {
  return useMutation({ mutationFn: loadUserSession, meta: { errorToast: { description: t.loadFailed } } });
}
