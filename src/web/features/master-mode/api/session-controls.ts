import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type AnswerOf, answerOf, client } from '@/lib/api-client';
import { masterMode as t } from '../strings';
import { storeMasterSession } from './get-master-session';

/** Execute All answers once it has started; the session's pushed events tell how it goes. */
export type ExecuteAllStarted = AnswerOf<'/api/master-mode/execute-all/{sessionId}', 'post'>;

export const executeAll = async (sessionId: string) =>
  answerOf(
    await client.POST('/api/master-mode/execute-all/{sessionId}', {
      params: { path: { sessionId } },
    }),
  );
export const stopSession = async (sessionId: string) =>
  answerOf(
    await client.POST('/api/master-mode/stop/{sessionId}', {
      params: { path: { sessionId } },
    }),
  );
export const resetSession = async (sessionId: string) =>
  answerOf(
    await client.POST('/api/master-mode/reset/{sessionId}', {
      params: { path: { sessionId } },
    }),
  );

/** Starts Execute All; refused (a required row left blank, one already running) it says why. */
export function useExecuteAll() {
  return useMutation({
    mutationFn: executeAll,
    meta: { errorToast: { title: t.executeAllFailed, messageOr: t.executeAllFailed } },
  });
}

export function useStopSession() {
  return useMutation({
    mutationFn: stopSession,
    meta: { errorToast: { title: t.stopFailed, messageOr: t.stopFailed } },
  });
}

export function useResetSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetSession,
    meta: { errorToast: { title: t.resetFailed, messageOr: t.resetFailed } },
    onSuccess: (session) => storeMasterSession(queryClient, session),
  });
}
