import type { Decider } from '../decider';
import { conflict, notFound, ruleViolated } from '../errors';
import { MAX_WORKSPACE_MEMBERS, MAX_WORKSPACES_PER_USER, WORKSPACE_NAME_MAX_LENGTH } from '../limits';
import type { WorkspaceCommand, WorkspaceContext } from './commands';
import type { Invitation, RevocationReason, Role, WorkspaceEvent, WorkspaceState } from './events';
import { roleMay } from './roles';

export const WORKSPACE_NOT_FOUND = 'Không tìm thấy workspace';
export const MEMBER_NOT_FOUND = 'Không tìm thấy thành viên';
/** A used, expired, revoked or someone else's invitation: all the same to whoever holds its link. */
export const INVITATION_NOT_FOUND = 'Không tìm thấy lời mời';
export const ALREADY_MEMBER = 'Người này đã là thành viên của workspace';
export const ALREADY_JOINED = 'Bạn đã là thành viên của workspace này';
export const LAST_OWNER =
  'Workspace cần có owner: hãy cho một thành viên khác làm owner trước khi người này rời đi hoặc đổi vai trò';
export const NAME_REQUIRED = 'name: tên workspace không được để trống';
export const NAME_TOO_LONG = `name: tối đa ${WORKSPACE_NAME_MAX_LENGTH} ký tự`;
export const TOO_MANY_WORKSPACES = `Mỗi người chỉ được là thành viên của tối đa ${MAX_WORKSPACES_PER_USER} workspace`;
export const TOO_MANY_MEMBERS = `Một workspace có tối đa ${MAX_WORKSPACE_MEMBERS} thành viên`;

/**
 * Whether an invitation is pending at `at`: nobody accepted it, nobody revoked it, and it has not expired.
 * Only a pending invitation is listed, can be revoked, or used.
 */
export const isPendingInvitation = (
  invitation: Pick<Invitation, 'acceptedBy' | 'revoked' | 'expiresAt'>,
  at: string,
): boolean =>
  invitation.acceptedBy === null && !invitation.revoked && Date.parse(invitation.expiresAt) > Date.parse(at);

/**
 * Whether an invitation may still be used by the person with `email` at `at`: it is pending, and it was
 * sent to that address (in any case). Otherwise it is missing to them.
 */
export const isOpenInvitationFor = (
  invitation: Pick<Invitation, 'email' | 'acceptedBy' | 'revoked' | 'expiresAt'>,
  email: string,
  at: string,
): boolean => isPendingInvitation(invitation, at) && invitation.email.toLowerCase() === email.toLowerCase();

/** A workspace's rules: its members and invitations as its stream folds them, and what each command adds. */
export const decider: Decider<WorkspaceState, WorkspaceCommand, WorkspaceEvent, WorkspaceContext> = {
  initialState,
  evolve,
  decide,
};

function initialState(): WorkspaceState {
  return {
    workspaceId: null,
    name: '',
    members: new Map(),
    invitations: [],
    createdAt: null,
    updatedAt: null,
  };
}

function evolve(state: WorkspaceState, event: WorkspaceEvent): WorkspaceState {
  const next = { ...state, updatedAt: event.data.at };
  switch (event.type) {
    case 'WorkspaceCreated': {
      const { workspaceId, name, ownerId, at } = event.data;
      return { ...next, workspaceId, name, members: new Map([[ownerId, 'owner']]), createdAt: at };
    }
    case 'WorkspaceRenamed':
      return { ...next, name: event.data.after };
    case 'MemberInvited': {
      const { invitationId, email, role, tokenHash, invitedBy, expiresAt } = event.data;
      const invitation: Invitation = {
        id: invitationId,
        email,
        role,
        tokenHash,
        expiresAt,
        invitedBy,
        acceptedBy: null,
        revoked: false,
      };
      return { ...next, invitations: [...state.invitations, invitation] };
    }
    case 'MemberJoined': {
      const { invitationId, userId, role } = event.data;
      return {
        ...next,
        members: withRole(state.members, userId, role),
        invitations: state.invitations.map((invitation) =>
          invitation.id === invitationId ? { ...invitation, acceptedBy: userId } : invitation,
        ),
      };
    }
    case 'MemberRoleChanged':
      return { ...next, members: withRole(state.members, event.data.userId, event.data.after) };
    case 'MemberRemoved': {
      const members = new Map(state.members);
      members.delete(event.data.userId);
      return { ...next, members };
    }
    case 'InvitationRevoked':
      return {
        ...next,
        invitations: state.invitations.map((invitation) =>
          invitation.id === event.data.invitationId ? { ...invitation, revoked: true } : invitation,
        ),
      };
  }
}

function decide(
  command: WorkspaceCommand,
  state: WorkspaceState,
  context: WorkspaceContext,
): WorkspaceEvent[] {
  const at = context.now;
  if (command.type === 'CreateWorkspace') {
    if (state.workspaceId !== null) throw conflict('Workspace đã tồn tại');
    const { workspaceId, workspacesOfOwner } = command.data;
    if (workspacesOfOwner >= MAX_WORKSPACES_PER_USER) throw ruleViolated(TOO_MANY_WORKSPACES);
    const name = checkedName(command.data.name);
    return [{ type: 'WorkspaceCreated', data: { workspaceId, name, ownerId: context.userId, at } }];
  }
  if (state.workspaceId === null) throw notFound(WORKSPACE_NOT_FOUND);
  switch (command.type) {
    case 'RenameWorkspace': {
      const name = checkedName(command.data.name);
      if (name === state.name) return [];
      return [{ type: 'WorkspaceRenamed', data: { before: state.name, after: name, at } }];
    }
    case 'InviteMember': {
      const { invitationId, email, role, tokenHash, expiresAt, inviteeId } = command.data;
      if (inviteeId !== null && state.members.has(inviteeId)) throw conflict(ALREADY_MEMBER);
      if (state.members.size >= MAX_WORKSPACE_MEMBERS) throw ruleViolated(TOO_MANY_MEMBERS);
      if (state.invitations.some((invitation) => invitation.id === invitationId))
        throw conflict('Lời mời đã tồn tại');
      const data = { invitationId, email, role, tokenHash, invitedBy: context.userId, expiresAt, at };
      return [{ type: 'MemberInvited', data }];
    }
    case 'AcceptInvitation': {
      const { tokenHash, email, workspacesOfUser } = command.data;
      const invitation = state.invitations.find(
        (each) => each.tokenHash === tokenHash && isOpenInvitationFor(each, email, at),
      );
      if (!invitation) throw notFound(INVITATION_NOT_FOUND);
      if (state.members.has(context.userId)) throw conflict(ALREADY_JOINED);
      if (state.members.size >= MAX_WORKSPACE_MEMBERS) throw ruleViolated(TOO_MANY_MEMBERS);
      if (workspacesOfUser >= MAX_WORKSPACES_PER_USER) throw ruleViolated(TOO_MANY_WORKSPACES);
      const { id: invitationId, role } = invitation;
      return [{ type: 'MemberJoined', data: { invitationId, userId: context.userId, role, at } }];
    }
    case 'ChangeMemberRole': {
      const { userId, role } = command.data;
      const before = roleOf(state, userId);
      if (before === role) return [];
      if (before === 'owner') checkAnotherOwner(state, userId);
      const changed: WorkspaceEvent = {
        type: 'MemberRoleChanged',
        data: { userId, before, after: role, at },
      };
      if (roleMay(role, 'manage')) return [changed];
      return [changed, ...revokedInvitationsOf(state, userId, 'inviter-demoted', at)];
    }
    case 'RemoveMember': {
      const { userId } = command.data;
      const role = roleOf(state, userId);
      if (role === 'owner') checkAnotherOwner(state, userId);
      return [
        { type: 'MemberRemoved', data: { userId, role, at } },
        ...revokedInvitationsOf(state, userId, 'inviter-removed', at),
      ];
    }
    case 'RevokeInvitation': {
      const { invitationId } = command.data;
      const invitation = state.invitations.find((each) => each.id === invitationId);
      if (!invitation || !isPendingInvitation(invitation, at)) throw notFound(INVITATION_NOT_FOUND);
      return [{ type: 'InvitationRevoked', data: { invitationId, reason: 'revoked', at } }];
    }
  }
}

/**
 * An invitation does not outlive its inviter's power to make members: the events that revoke every pending
 * invitation `userId` made, when they are removed or take a role that does not manage members.
 */
function revokedInvitationsOf(
  state: WorkspaceState,
  userId: string,
  reason: RevocationReason,
  at: string,
): WorkspaceEvent[] {
  return state.invitations
    .filter((invitation) => invitation.invitedBy === userId && isPendingInvitation(invitation, at))
    .map((invitation) => ({ type: 'InvitationRevoked', data: { invitationId: invitation.id, reason, at } }));
}

function withRole(members: Map<string, Role>, userId: string, role: Role): Map<string, Role> {
  return new Map(members).set(userId, role);
}

function roleOf(state: WorkspaceState, userId: string): Role {
  const role = state.members.get(userId);
  if (role === undefined) throw notFound(MEMBER_NOT_FOUND);
  return role;
}

/** The owner `userId` may stop being one only while another member is an owner too. */
function checkAnotherOwner(state: WorkspaceState, userId: string) {
  const owners = [...state.members].filter(([id, role]) => id !== userId && role === 'owner');
  if (owners.length === 0) throw ruleViolated(LAST_OWNER);
}

/** A name as the API checks it (trimmed, filled in, not too long), checked again for any other caller. */
function checkedName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw ruleViolated(NAME_REQUIRED);
  if (trimmed.length > WORKSPACE_NAME_MAX_LENGTH) throw ruleViolated(NAME_TOO_LONG);
  return trimmed;
}
