import { useMutation, useQueryClient } from '@tanstack/react-query';
import { answerOf, type BodyOf, client } from '@/lib/api-client';
import { sessions as t } from '../strings';
import { userSessionsQueryOptions } from './get-user-sessions';

/** The screen a session brings the user back to. */
type SessionMode = NonNullable<NonNullable<BodyOf<'/api/user-sessions', 'post'>['sessionData']>['mode']>;

export interface CreateUserSessionInput {
  sessionName: string;
  description: string;
  /** Empty: the flow the user works on now. */
  flowId: string;
  /** Unset: run when there is an execution, else edit. */
  mode?: SessionMode;
}

/** The execution is always sent empty: the server takes the one the user (or the chosen flow) last ran. */
export const createUserSession = async ({ sessionName, description, flowId, mode }: CreateUserSessionInput) =>
  answerOf(
    await client.POST('/api/user-sessions', {
      body: { flowId, executionId: '', sessionName, sessionData: { description, ...(mode ? { mode } : {}) } },
    }),
  );

export function useCreateUserSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUserSession,
    meta: { errorToast: { description: t.createFailed } },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userSessionsQueryOptions.queryKey }),
  });
}
