import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { executionSocket } from './execution-socket';
import { useWorkspaces, workspacesQueryOptions } from './workspace-roles';

/**
 * Whether the user was removed from the workspace the screen's record is in while the screen was open: the
 * live updates socket was closed for a removal, and the user's workspaces, read again, no longer hold it.
 */
export function useRemovedFromWorkspace(workspaceId: string | null | undefined): boolean {
  const queryClient = useQueryClient();
  const workspaces = useWorkspaces();
  const [told, setTold] = useState(false);
  useEffect(() => {
    if (!workspaceId) return;
    const removal = executionSocket().removedFromWorkspace$.subscribe(() => {
      setTold(true);
      void queryClient.invalidateQueries({ queryKey: workspacesQueryOptions.queryKey });
    });
    return () => removal.unsubscribe();
  }, [workspaceId, queryClient]);
  return (
    Boolean(workspaceId) &&
    told &&
    workspaces.isSuccess &&
    !workspaces.isFetching &&
    !workspaces.data.some((workspace) => workspace.id === workspaceId)
  );
}
