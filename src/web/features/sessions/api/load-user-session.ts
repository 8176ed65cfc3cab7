import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { sessions as t } from '../strings';

/** Where the page reloads into: the session's flow workspace in its mode, or the flows list. */
export interface LoadedUserSession {
  url: string;
  flowId: string | null;
  executionId: string | null;
}

export const loadUserSession = (sessionId: string) =>
  api.post<LoadedUserSession>(`/api/user-sessions/${sessionId}/load`);

/** Nothing to refresh: the page reloads right after. */
export function useLoadUserSession() {
  return useMutation({ mutationFn: loadUserSession, meta: { errorToast: { description: t.loadFailed } } });
}
