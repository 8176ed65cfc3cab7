import { queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type AnswerOf,
  answerOf,
  type BodyOf,
  client,
  type PageOf,
  pageOf,
  type Unpaged,
  unpaged,
} from '@/lib/api-client';
import { workspaceFlowsQueryOptions } from '@/lib/flows-query';
import { workspacesQueryOptions } from '@/lib/workspace-roles';
import { toasts } from '../strings';

export type WorkspaceMember = Unpaged<AnswerOf<'/api/workspaces/{id}/members'>>[number];
export type Invitation = AnswerOf<'/api/workspaces/{id}/invitations', 'post'>;
export type InvitationInput = BodyOf<'/api/workspaces/{id}/invitations', 'post'>;
export type PendingInvitation = PageOf<AnswerOf<'/api/workspaces/{id}/invitations'>>['items'][number];
export type WorkspaceExecution = AnswerOf<'/api/workspaces/{id}/executions'>['items'][number];
export type ExecutionFilters = {
  flowId?: string;
  userId?: string;
  status?: WorkspaceExecution['status'];
  from?: string;
  to?: string;
};

export function useCreateWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => answerOf(await client.POST('/api/workspaces', { body: { name } })),
    meta: { errorToast: { messageOr: toasts.createFailed } },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: workspacesQueryOptions.queryKey }),
  });
}

export const membersQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: ['/api/workspaces', workspaceId, 'members'],
    queryFn: async ({ signal }) =>
      unpaged(
        answerOf(
          await client.GET('/api/workspaces/{id}/members', { params: { path: { id: workspaceId } }, signal }),
        ),
      ),
    staleTime: 0,
  });

export function useMembers(workspaceId: string, enabled = true) {
  return useQuery({ ...membersQueryOptions(workspaceId), enabled });
}

const PENDING_INVITATIONS_PAGE = 50;

/** The query key of a workspace's pending invitations: what inviting, revoking and member changes refresh. */
const pendingInvitationsKey = (workspaceId: string) => ['/api/workspaces', workspaceId, 'invitations'];

/** A workspace's pending invitations, newest first, page by page ("Tải thêm"): owners only. */
export function usePendingInvitations(workspaceId: string) {
  return useInfiniteQuery({
    queryKey: pendingInvitationsKey(workspaceId),
    initialPageParam: null as string | null,
    queryFn: async ({ pageParam, signal }) =>
      pageOf(
        answerOf(
          await client.GET('/api/workspaces/{id}/invitations', {
            params: {
              path: { id: workspaceId },
              query: { limit: PENDING_INVITATIONS_PAGE, ...(pageParam ? { cursor: pageParam } : {}) },
            },
            signal,
          }),
        ),
      ),
    getNextPageParam: (page) => page.nextCursor,
    staleTime: 0,
  });
}

/** Revokes a pending invitation: its link no longer works. */
export function useRevokeInvitation(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (invitationId: string) =>
      answerOf(
        await client.DELETE('/api/workspaces/{id}/invitations/{invitationId}', {
          params: { path: { id: workspaceId, invitationId } },
        }),
      ),
    meta: { errorToast: { messageOr: toasts.revokeFailed } },
    onSettled: () => queryClient.invalidateQueries({ queryKey: pendingInvitationsKey(workspaceId) }),
  });
}

export function useInvite(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: InvitationInput) =>
      answerOf(
        await client.POST('/api/workspaces/{id}/invitations', {
          params: { path: { id: workspaceId } },
          body,
        }),
      ),
    meta: { errorToast: { messageOr: toasts.inviteFailed } },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: pendingInvitationsKey(workspaceId) }),
  });
}

export function useChangeRole(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ userId, role }: Pick<WorkspaceMember, 'userId' | 'role'>) =>
      answerOf(
        await client.PUT('/api/workspaces/{id}/members/{userId}', {
          params: { path: { id: workspaceId, userId } },
          body: { role },
        }),
      ),
    meta: { errorToast: { messageOr: toasts.roleFailed } },
    // A member who no longer manages members loses their pending invitations.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: membersQueryOptions(workspaceId).queryKey }),
        queryClient.invalidateQueries({ queryKey: pendingInvitationsKey(workspaceId) }),
      ]),
  });
}

export function useRemoveMember(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (userId: string) =>
      answerOf(
        await client.DELETE('/api/workspaces/{id}/members/{userId}', {
          params: { path: { id: workspaceId, userId } },
        }),
      ),
    meta: { errorToast: { messageOr: toasts.removeFailed } },
    // A removed member's pending invitations go with them.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: membersQueryOptions(workspaceId).queryKey }),
        queryClient.invalidateQueries({ queryKey: pendingInvitationsKey(workspaceId) }),
      ]),
  });
}

export type InvitationPreview = AnswerOf<'/api/invitations/{token}'>;

/** What an invitation is to, read before accepting it (accepted: used by this user; 404: used by another, expired, or someone else's). */
export function useInvitation(token: string) {
  return useQuery({
    queryKey: ['/api/invitations', token],
    queryFn: async ({ signal }) =>
      answerOf(await client.GET('/api/invitations/{token}', { params: { path: { token } }, signal })),
    retry: false,
  });
}

/**
 * Accepting an invitation; the screen says itself when the invitation is no longer valid. Accepted, the
 * invitation is stale: its page, come back to, reads it again and says it was used.
 */
export function useAcceptInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (token: string) =>
      answerOf(await client.POST('/api/invitations/{token}/accept', { params: { path: { token } } })),
    meta: { errorToast: false },
    onSuccess: (_, token) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: workspacesQueryOptions.queryKey }),
        // Read again when the page is next open, not now: the workspace opens at once.
        queryClient.invalidateQueries({ queryKey: ['/api/invitations', token], refetchType: 'none' }),
      ]),
  });
}

/** A workspace's flows, as the flows list gives them. */
export function useWorkspaceFlows(workspaceId: string) {
  return useQuery(workspaceFlowsQueryOptions(workspaceId));
}

const EXECUTIONS_PAGE = 25;

/** A workspace's executions, newest first, filtered, page by page ("Tải thêm"). */
export function useWorkspaceExecutions(workspaceId: string, filters: ExecutionFilters) {
  return useInfiniteQuery({
    queryKey: ['/api/workspaces', workspaceId, 'executions', filters],
    initialPageParam: null as string | null,
    queryFn: async ({ pageParam, signal }) =>
      answerOf(
        await client.GET('/api/workspaces/{id}/executions', {
          params: {
            path: { id: workspaceId },
            query: { ...filters, limit: EXECUTIONS_PAGE, ...(pageParam ? { cursor: pageParam } : {}) },
          },
          signal,
        }),
      ),
    getNextPageParam: (page) => page.nextCursor,
    staleTime: 0,
  });
}
