import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SessionMode } from '../../../../domain/user-session';

/** A saved session: the flow, execution and mode it brings the user back to. */
export interface UserSession {
  id: string;
  flowId: string | null;
  executionId: string | null;
  /** The session's flow while it exists. */
  flowName: string | null;
  sessionName: string;
  sessionData: { description?: string; mode?: SessionMode };
  lastActiveAt: string | null;
  createdAt: string;
}

export const userSessionsQueryOptions = queryOptions<UserSession[]>({ queryKey: ['/api/user-sessions'] });

export function useUserSessions() {
  return useQuery(userSessionsQueryOptions);
}
