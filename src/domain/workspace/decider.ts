import type { Decider } from '../decider';
import { conflict, notFound, ruleViolated } from '../errors';
import { MAX_WORKSPACE_MEMBERS, MAX_WORKSPACES_PER_USER, WORKSPACE_NAME_MAX_LENGTH } from '../limits';
import type { WorkspaceCommand, WorkspaceContext } from './commands';
import type { Invitation, Role, WorkspaceEvent, WorkspaceState } from './events';

export const WORKSPACE_NOT_FOUND = 'Workspace not found';
export const MEMBER_NOT_FOUND = 'Member not found';
/** A used, expired or someone else's invitation: all the same to whoever holds its link. */
export const INVITATION_NOT_FOUND = 'Invitation not found';
export const ALREADY_MEMBER = 'This person is already a member of the workspace';
export const ALREADY_JOINED = 'You are already a member of this workspace';
export const LAST_OWNER =
  'A workspace needs an owner: make another member owner before this one leaves or gets another role';
export const NAME_REQUIRED = 'name is required';
export const NAME_TOO_LONG = `name: must be at most ${WORKSPACE_NAME_MAX_LENGTH} characters`;
export const TOO_MANY_WORKSPACES = `A user may be a member of at most ${MAX_WORKSPACES_PER_USER} workspaces`;
export const TOO_MANY_MEMBERS = `A workspace has at most ${MAX_WORKSPACE_MEMBERS} members`;

/**
 * Whether an invitation may still be used by the person with `email` at `at`: nobody accepted it, it has not
 * expired, and it was sent to that address (in any case). Otherwise it is missing to them.
 */
export const isOpenInvitationFor = (
  invitation: Pick<Invitation, 'email' | 'acceptedBy' | 'expiresAt'>,
  email: string,
  at: string,
): boolean =>
  invitation.acceptedBy === null &&
  Date.parse(invitation.expiresAt) > Date.parse(at) &&
  invitation.email.toLowerCase() === email.toLowerCase();

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
      const { invitationId, email, role, tokenHash, expiresAt } = event.data;
      const invitation: Invitation = {
        id: invitationId,
        email,
        role,
        tokenHash,
        expiresAt,
        acceptedBy: null,
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
  }
}

function decide(
  command: WorkspaceCommand,
  state: WorkspaceState,
  context: WorkspaceContext,
): WorkspaceEvent[] {
  const at = context.now;
  if (command.type === 'CreateWorkspace') {
    if (state.workspaceId !== null) throw conflict('Workspace already exists');
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
        throw conflict('Invitation already exists');
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
      return [{ type: 'MemberRoleChanged', data: { userId, before, after: role, at } }];
    }
    case 'RemoveMember': {
      const { userId } = command.data;
      const role = roleOf(state, userId);
      if (role === 'owner') checkAnotherOwner(state, userId);
      return [{ type: 'MemberRemoved', data: { userId, role, at } }];
    }
  }
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
