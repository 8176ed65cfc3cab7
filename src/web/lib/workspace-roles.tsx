import { queryOptions, useQuery } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext } from 'react';
import { type Role, WORKSPACE_ROLES } from '../../domain/workspace/events';
import { type Action, roleMay } from '../../domain/workspace/roles';
import { type AnswerOf, answerOf, client, type Unpaged, unpaged } from './api-client';

/**
 * What each workspace role may do is the table the server decides by (src/domain/workspace/roles.ts).
 * Screens ask `mayDo` (or `useRecordAccess` for a flow or execution) before showing a control; the server
 * still refuses what a role may not do, with a 403 whose text the failure toast shows.
 */
export type WorkspaceRole = Role;
export type RecordAction = Action;
export { WORKSPACE_ROLES };

/** May a member with `role` do `action` to the workspace's records? No role (not a member): nothing. */
export const mayDo = roleMay;

/** Workspaces a user with `role` may make flows in or move flows to. */
export const mayMakeFlows = (role: WorkspaceRole | null | undefined) => mayDo(role, 'change');

/**
 * What the user may do to a record: their own record (no workspace) allows everything; a workspace's
 * allows what their role there does; while the role is not known yet, nothing beyond reading.
 */
export function recordAccess(
  workspaceId: string | null | undefined,
  role: WorkspaceRole | null | undefined,
): (action: RecordAction) => boolean {
  if (!workspaceId) return () => true;
  return (action) => action === 'read' || mayDo(role, action);
}

/** A workspace as the user's list gives it: its id, name and the user's role in it. */
export type UserWorkspace = Unpaged<AnswerOf<'/api/workspaces'>>[number];

export const workspacesQueryOptions = queryOptions({
  queryKey: ['/api/workspaces'],
  queryFn: async ({ signal }) => unpaged(answerOf(await client.GET('/api/workspaces', { signal }))),
});

/** The user's workspaces with their role in each. */
export function useWorkspaces() {
  return useQuery(workspacesQueryOptions);
}

/** The user's role in a workspace (undefined while the list loads or for no workspace). */
export function useWorkspaceRole(workspaceId: string | null | undefined): WorkspaceRole | undefined {
  const { data } = useWorkspaces();
  return workspaceId ? data?.find((workspace) => workspace.id === workspaceId)?.role : undefined;
}

/** `recordAccess` for a flow's or execution's `workspaceId`, with the user's role read from their workspaces. */
export function useRecordAccess(workspaceId: string | null | undefined) {
  return recordAccess(workspaceId, useWorkspaceRole(workspaceId));
}

/**
 * What the screen's record allows, for the controls deep inside it: everything unless a flow screen of a
 * workspace's flow says otherwise.
 */
const RecordAccessContext = createContext<(action: RecordAction) => boolean>(() => true);

export function RecordAccessProvider({
  workspaceId,
  children,
}: {
  workspaceId: string | null | undefined;
  children: ReactNode;
}) {
  const may = useRecordAccess(workspaceId);
  return <RecordAccessContext.Provider value={may}>{children}</RecordAccessContext.Provider>;
}

/** May the user do `action` to the record the screen shows? */
export function useMay(action: RecordAction): boolean {
  return useContext(RecordAccessContext)(action);
}
