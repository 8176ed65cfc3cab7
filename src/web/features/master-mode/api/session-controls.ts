import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MasterSessionWithSteps } from '../../../../domain/master-mode/master-session';
import { masterMode as t } from '../strings';
import { storeMasterSession } from './get-master-session';

/** Execute All answers once it has started; the session's pushed events tell how it goes. */
export interface ExecuteAllStarted {
  runAllId: string;
  version: number;
}

export const executeAll = (sessionId: string) =>
  api.post<ExecuteAllStarted>(`/api/master-mode/execute-all/${sessionId}`);
export const stopSession = (sessionId: string) =>
  api.post<{ stopped: boolean }>(`/api/master-mode/stop/${sessionId}`);
export const resetSession = (sessionId: string) =>
  api.post<MasterSessionWithSteps>(`/api/master-mode/reset/${sessionId}`);

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
