import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MasterSessionWithSteps } from '../../../../domain/master-mode/master-session';
import { masterMode as t } from '../strings';
import { masterSessionQueryOptions, storeMasterSession } from './get-master-session';

export interface ExecuteAllAnswer {
  outcome: 'completed' | 'stopped';
  session: MasterSessionWithSteps;
}

export const executeAll = (sessionId: string) =>
  api.post<ExecuteAllAnswer>(`/api/master-mode/execute-all/${sessionId}`);
export const stopSession = (sessionId: string) =>
  api.post<{ stopped: boolean }>(`/api/master-mode/stop/${sessionId}`);
export const resetSession = (sessionId: string) =>
  api.post<MasterSessionWithSteps>(`/api/master-mode/reset/${sessionId}`);

export function useExecuteAll() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: executeAll,
    meta: { errorToast: { title: t.executeAllFailed, messageOr: t.executeAllFailed } },
    onSuccess: (answer) => storeMasterSession(queryClient, answer.session),
    // A failing row ends the run part way: the rows before it have new results.
    onError: (_, sessionId) =>
      queryClient.invalidateQueries({ queryKey: masterSessionQueryOptions(sessionId).queryKey }),
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
