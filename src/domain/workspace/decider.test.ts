import { describe, expect, it } from 'vitest';
import { MAX_WORKSPACE_MEMBERS, MAX_WORKSPACES_PER_USER, WORKSPACE_NAME_MAX_LENGTH } from '../limits';
import { given } from '../testing';
import type { WorkspaceCommand, WorkspaceContext } from './commands';
import {
  ALREADY_JOINED,
  ALREADY_MEMBER,
  decider,
  INVITATION_NOT_FOUND,
  LAST_OWNER,
  MEMBER_NOT_FOUND,
  NAME_REQUIRED,
  NAME_TOO_LONG,
  TOO_MANY_MEMBERS,
  TOO_MANY_WORKSPACES,
  WORKSPACE_NOT_FOUND,
} from './decider';
import type { RevocationReason, Role, WorkspaceEvent } from './events';

const NOW = '2026-11-25T10:00:00.000Z';
const EARLIER = '2026-11-24T09:00:00.000Z';
const NEXT_WEEK = '2026-12-01T09:00:00.000Z';
const LAST_WEEK = '2026-11-18T09:00:00.000Z';

/** Decided at NOW by `userId`. */
const by =
  (userId: string) =>
  (_state: unknown, version: number): WorkspaceContext => ({ now: NOW, userId, version });

const created: WorkspaceEvent = {
  type: 'WorkspaceCreated',
  data: { workspaceId: 'w1', name: 'Team', ownerId: 'owner', at: EARLIER },
};

const invited = (
  invitationId: string,
  email: string,
  role: Role = 'editor',
  expiresAt = NEXT_WEEK,
): WorkspaceEvent => ({
  type: 'MemberInvited',
  data: {
    invitationId,
    email,
    role,
    tokenHash: `hash-${invitationId}`,
    invitedBy: 'owner',
    expiresAt,
    at: EARLIER,
  },
});

const joined = (invitationId: string, userId: string, role: Role = 'editor'): WorkspaceEvent => ({
  type: 'MemberJoined',
  data: { invitationId, userId, role, at: EARLIER },
});

const accept = (invitationId: string, email: string, workspacesOfUser = 0): WorkspaceCommand => ({
  type: 'AcceptInvitation',
  data: { tokenHash: `hash-${invitationId}`, email, workspacesOfUser },
});

const invite = (email: string, inviteeId: string | null = null): WorkspaceCommand => ({
  type: 'InviteMember',
  data: {
    invitationId: 'i9',
    email,
    role: 'reviewer',
    tokenHash: 'hash-i9',
    expiresAt: NEXT_WEEK,
    inviteeId,
  },
});

describe('the workspace decider', () => {
  it('creates a workspace whose maker is its owner, its name trimmed', () => {
    const { state } = given(decider, [], by('owner'))
      .when({ type: 'CreateWorkspace', data: { workspaceId: 'w1', name: '  Team ', workspacesOfOwner: 0 } })
      .thenEmits([
        { type: 'WorkspaceCreated', data: { workspaceId: 'w1', name: 'Team', ownerId: 'owner', at: NOW } },
      ]);
    expect([...state.members]).toEqual([['owner', 'owner']]);
  });

  it('refuses a blank or overlong name, a second creation, and a command on no workspace', () => {
    const create = (name: string) =>
      ({ type: 'CreateWorkspace', data: { workspaceId: 'w1', name, workspacesOfOwner: 0 } }) as const;
    given(decider, [], by('owner')).when(create('   ')).thenThrows('rule_violated', NAME_REQUIRED);
    given(decider, [], by('owner'))
      .when(create('x'.repeat(WORKSPACE_NAME_MAX_LENGTH + 1)))
      .thenThrows('rule_violated', NAME_TOO_LONG);
    given(decider, [created], by('owner'))
      .when(create('Again'))
      .thenThrows('conflict', 'Workspace đã tồn tại');
    given(decider, [], by('owner'))
      .when(invite('a@example.com'))
      .thenThrows('not_found', WORKSPACE_NOT_FOUND);
  });

  it(`refuses a workspace to whoever is a member of ${MAX_WORKSPACES_PER_USER} already`, () => {
    const create = (workspacesOfOwner: number) =>
      ({ type: 'CreateWorkspace', data: { workspaceId: 'w1', name: 'Team', workspacesOfOwner } }) as const;
    given(decider, [], by('owner'))
      .when(create(MAX_WORKSPACES_PER_USER))
      .thenThrows('rule_violated', TOO_MANY_WORKSPACES);
    expect(
      given(decider, [], by('owner'))
        .when(create(MAX_WORKSPACES_PER_USER - 1))
        .events(),
    ).toHaveLength(1);
  });

  it('renames, and records nothing for the same name', () => {
    given(decider, [created], by('owner'))
      .when({ type: 'RenameWorkspace', data: { name: 'Crew' } })
      .thenEmits([{ type: 'WorkspaceRenamed', data: { before: 'Team', after: 'Crew', at: NOW } }]);
    given(decider, [created], by('owner'))
      .when({ type: 'RenameWorkspace', data: { name: 'Team' } })
      .thenEmits([]);
  });

  it('invites by e-mail with the token hash and the inviter, never a member again', () => {
    given(decider, [created], by('owner'))
      .when(invite('bo@example.com'))
      .thenEmits([
        {
          type: 'MemberInvited',
          data: {
            invitationId: 'i9',
            email: 'bo@example.com',
            role: 'reviewer',
            tokenHash: 'hash-i9',
            invitedBy: 'owner',
            expiresAt: NEXT_WEEK,
            at: NOW,
          },
        },
      ]);
    given(decider, [created, invited('i1', 'bo@example.com'), joined('i1', 'bo')], by('owner'))
      .when(invite('BO@example.com', 'bo'))
      .thenThrows('conflict', ALREADY_MEMBER);
    given(decider, [created], by('owner'))
      .when(invite('owner@example.com', 'owner'))
      .thenThrows('conflict', ALREADY_MEMBER);
  });

  it('makes the one who accepts a member in the invited role, matching the e-mail in any case', () => {
    const { state } = given(decider, [created, invited('i1', 'bo@example.com', 'auditor')], by('bo'))
      .when(accept('i1', 'Bo@Example.COM'))
      .thenEmits([
        { type: 'MemberJoined', data: { invitationId: 'i1', userId: 'bo', role: 'auditor', at: NOW } },
      ]);
    expect(state.members.get('bo')).toBe('auditor');
    expect(state.invitations[0]!.acceptedBy).toBe('bo');
  });

  it('answers "not found" for a used, expired, unknown or someone else\'s invitation', () => {
    const history = [created, invited('i1', 'bo@example.com')];
    given(decider, [...history, joined('i1', 'bo')], by('cy'))
      .when(accept('i1', 'bo@example.com'))
      .thenThrows('not_found', INVITATION_NOT_FOUND);
    given(decider, [created, invited('i1', 'bo@example.com', 'editor', LAST_WEEK)], by('bo'))
      .when(accept('i1', 'bo@example.com'))
      .thenThrows('not_found', INVITATION_NOT_FOUND);
    given(decider, history, by('bo'))
      .when(accept('i2', 'bo@example.com'))
      .thenThrows('not_found', INVITATION_NOT_FOUND);
    given(decider, history, by('cy'))
      .when(accept('i1', 'cy@example.com'))
      .thenThrows('not_found', INVITATION_NOT_FOUND);
  });

  it('expires an invitation at its expiry, not a moment later', () => {
    given(decider, [created, invited('i1', 'bo@example.com', 'editor', NOW)], by('bo'))
      .when(accept('i1', 'bo@example.com'))
      .thenThrows('not_found', INVITATION_NOT_FOUND);
  });

  it('refuses to make a member twice, or past the limits of members and workspaces', () => {
    const history = [
      created,
      invited('i1', 'bo@example.com'),
      invited('i2', 'bo@example.com'),
      joined('i1', 'bo'),
    ];
    given(decider, history, by('bo'))
      .when(accept('i2', 'bo@example.com'))
      .thenThrows('conflict', ALREADY_JOINED);
    given(decider, [created, invited('i1', 'bo@example.com')], by('bo'))
      .when(accept('i1', 'bo@example.com', MAX_WORKSPACES_PER_USER))
      .thenThrows('rule_violated', TOO_MANY_WORKSPACES);
    const full: WorkspaceEvent[] = [created];
    for (let i = 1; i < MAX_WORKSPACE_MEMBERS; i++) full.push(joined('gone', `member-${i}`));
    given(decider, [...full, invited('i1', 'bo@example.com')], by('bo'))
      .when(accept('i1', 'bo@example.com'))
      .thenThrows('rule_violated', TOO_MANY_MEMBERS);
    given(decider, full, by('owner'))
      .when(invite('cy@example.com'))
      .thenThrows('rule_violated', TOO_MANY_MEMBERS);
  });

  it("changes a member's role, and records nothing for the same role", () => {
    const history = [created, invited('i1', 'bo@example.com'), joined('i1', 'bo')];
    given(decider, history, by('owner'))
      .when({ type: 'ChangeMemberRole', data: { userId: 'bo', role: 'owner' } })
      .thenEmits([
        { type: 'MemberRoleChanged', data: { userId: 'bo', before: 'editor', after: 'owner', at: NOW } },
      ]);
    given(decider, history, by('owner'))
      .when({ type: 'ChangeMemberRole', data: { userId: 'bo', role: 'editor' } })
      .thenEmits([]);
    given(decider, history, by('owner'))
      .when({ type: 'ChangeMemberRole', data: { userId: 'nobody', role: 'editor' } })
      .thenThrows('not_found', MEMBER_NOT_FOUND);
  });

  it('never leaves a workspace without an owner', () => {
    const history = [created, invited('i1', 'bo@example.com'), joined('i1', 'bo')];
    given(decider, history, by('owner'))
      .when({ type: 'ChangeMemberRole', data: { userId: 'owner', role: 'editor' } })
      .thenThrows('rule_violated', LAST_OWNER);
    given(decider, history, by('owner'))
      .when({ type: 'RemoveMember', data: { userId: 'owner' } })
      .thenThrows('rule_violated', LAST_OWNER);
    const twoOwners = [
      ...history,
      { type: 'MemberRoleChanged', data: { userId: 'bo', before: 'editor', after: 'owner', at: EARLIER } },
    ] satisfies WorkspaceEvent[];
    given(decider, twoOwners, by('owner'))
      .when({ type: 'ChangeMemberRole', data: { userId: 'owner', role: 'auditor' } })
      .thenEmits([
        { type: 'MemberRoleChanged', data: { userId: 'owner', before: 'owner', after: 'auditor', at: NOW } },
      ]);
    given(decider, twoOwners, by('owner'))
      .when({ type: 'RemoveMember', data: { userId: 'owner' } })
      .thenEmits([{ type: 'MemberRemoved', data: { userId: 'owner', role: 'owner', at: NOW } }]);
  });

  it('removes a member with the role they had; a removed member is no member', () => {
    const history = [created, invited('i1', 'bo@example.com'), joined('i1', 'bo')];
    const { state } = given(decider, history, by('owner'))
      .when({ type: 'RemoveMember', data: { userId: 'bo' } })
      .thenEmits([{ type: 'MemberRemoved', data: { userId: 'bo', role: 'editor', at: NOW } }]);
    expect(state.members.has('bo')).toBe(false);
    given(
      decider,
      [...history, { type: 'MemberRemoved', data: { userId: 'bo', role: 'editor', at: NOW } }],
      by('owner'),
    )
      .when({ type: 'RemoveMember', data: { userId: 'bo' } })
      .thenThrows('not_found', MEMBER_NOT_FOUND);
  });

  describe('revoking invitations', () => {
    const promoted: WorkspaceEvent = {
      type: 'MemberRoleChanged',
      data: { userId: 'bo', before: 'editor', after: 'owner', at: EARLIER },
    };
    /** An invitation made by `invitedBy`. */
    const invitedBy = (invitedBy: string, invitationId: string, email: string, expiresAt = NEXT_WEEK) => {
      const event = invited(invitationId, email, 'owner', expiresAt);
      return { ...event, data: { ...event.data, invitedBy } } as WorkspaceEvent;
    };
    /** Bo, a second owner, invited cy (pending) and dee (expired); the first owner invited eve. */
    const history = [
      created,
      invited('i1', 'bo@example.com'),
      joined('i1', 'bo'),
      promoted,
      invitedBy('bo', 'i2', 'cy@example.com'),
      invitedBy('bo', 'i3', 'dee@example.com', LAST_WEEK),
      invitedBy('owner', 'i4', 'eve@example.com'),
    ];
    const revoked = (invitationId: string, reason: RevocationReason): WorkspaceEvent => ({
      type: 'InvitationRevoked',
      data: { invitationId, reason, at: NOW },
    });

    it('revokes a pending invitation, which then cannot be accepted or revoked again', () => {
      const { state } = given(decider, history, by('owner'))
        .when({ type: 'RevokeInvitation', data: { invitationId: 'i2' } })
        .thenEmits([revoked('i2', 'revoked')]);
      expect(state.invitations.find((each) => each.id === 'i2')?.revoked).toBe(true);
      const after = [...history, revoked('i2', 'revoked')];
      given(decider, after, by('cy'))
        .when(accept('i2', 'cy@example.com'))
        .thenThrows('not_found', INVITATION_NOT_FOUND);
      for (const invitationId of ['i2', 'i1', 'i3', 'nope']) {
        given(decider, after, by('owner'))
          .when({ type: 'RevokeInvitation', data: { invitationId } })
          .thenThrows('not_found', INVITATION_NOT_FOUND);
      }
    });

    it("revokes a removed member's pending invitations with the removal, no one else's", () => {
      given(decider, history, by('owner'))
        .when({ type: 'RemoveMember', data: { userId: 'bo' } })
        .thenEmits([
          { type: 'MemberRemoved', data: { userId: 'bo', role: 'owner', at: NOW } },
          revoked('i2', 'inviter-removed'),
        ]);
    });

    it('revokes them when the member takes a role that does not manage members, not when it does', () => {
      given(decider, history, by('owner'))
        .when({ type: 'ChangeMemberRole', data: { userId: 'bo', role: 'reviewer' } })
        .thenEmits([
          { type: 'MemberRoleChanged', data: { userId: 'bo', before: 'owner', after: 'reviewer', at: NOW } },
          revoked('i2', 'inviter-demoted'),
        ]);
      const demoted: WorkspaceEvent = {
        type: 'MemberRoleChanged',
        data: { userId: 'bo', before: 'owner', after: 'editor', at: EARLIER },
      };
      given(decider, [...history, demoted], by('owner'))
        .when({ type: 'ChangeMemberRole', data: { userId: 'bo', role: 'owner' } })
        .thenEmits([
          { type: 'MemberRoleChanged', data: { userId: 'bo', before: 'editor', after: 'owner', at: NOW } },
        ]);
    });
  });
});
