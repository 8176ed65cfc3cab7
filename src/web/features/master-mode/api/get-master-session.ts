import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import type { MasterSessionWithSteps } from '../../../../domain/master-mode/master-session';

export const masterSessionQueryOptions = (sessionId: string) =>
  queryOptions<MasterSessionWithSteps>({ queryKey: ['/api/master-mode/session', sessionId] });

/** While Execute All runs on the server, the session is read every second so results appear row by row. */
export function useMasterSession(sessionId: string, { following = false } = {}) {
  return useQuery({ ...masterSessionQueryOptions(sessionId), refetchInterval: following ? 1000 : false });
}

/** A session answered by a command replaces the cached one. */
export function storeMasterSession(queryClient: QueryClient, session: MasterSessionWithSteps) {
  queryClient.setQueryData(masterSessionQueryOptions(session.id).queryKey, session);
}
