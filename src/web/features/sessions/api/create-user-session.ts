import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { SessionMode } from '../../../../domain/user-session';
import { sessions as t } from '../strings';
import { type UserSession, userSessionsQueryOptions } from './get-user-sessions';

export interface CreateUserSessionInput {
  sessionName: string;
  description: string;
  /** Empty: the flow the user works on now. */
  flowId: string;
  /** Unset: run when there is an execution, else edit. */
  mode?: SessionMode;
}

/** The execution is always sent empty: the server takes the one the user (or the chosen flow) last ran. */
export const createUserSession = ({ sessionName, description, flowId, mode }: CreateUserSessionInput) =>
  api.post<UserSession>('/api/user-sessions', {
    flowId,
    executionId: '',
    sessionName,
    sessionData: { description, ...(mode ? { mode } : {}) },
  });

export function useCreateUserSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUserSession,
    meta: { errorToast: { description: t.createFailed } },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userSessionsQueryOptions.queryKey }),
  });
}
