import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import type { MasterSessionWithSteps } from '../../../../domain/master-mode/master-session';

export const masterSessionQueryOptions = (sessionId: string) =>
  queryOptions<MasterSessionWithSteps>({ queryKey: ['/api/master-mode/session', sessionId] });

/** The session; pushed events of its stream read it again (useLiveMasterSession), nothing polls it. */
export function useMasterSession(sessionId: string) {
  return useQuery(masterSessionQueryOptions(sessionId));
}

/** A session answered by a command replaces the cached one. */
export function storeMasterSession(queryClient: QueryClient, session: MasterSessionWithSteps) {
  queryClient.setQueryData(masterSessionQueryOptions(session.id).queryKey, session);
}
