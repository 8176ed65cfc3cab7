import { describe, expect, it } from 'vitest';
import { snapshotFingerprint } from '../testing';
import { decider } from './decider';
import type { WorkspaceEvent } from './events';
import { workspaceSnapshot } from './snapshot';

const at = (minute: number) => `2026-11-27T10:${String(minute).padStart(2, '0')}:00.000Z`;

const history: WorkspaceEvent[] = [
  { type: 'WorkspaceCreated', data: { workspaceId: 'w1', name: 'Team', ownerId: 'ann', at: at(0) } },
  { type: 'WorkspaceRenamed', data: { before: 'Team', after: 'The team', at: at(1) } },
  {
    type: 'MemberInvited',
    data: {
      invitationId: 'i1',
      email: 'bob@example.com',
      role: 'editor',
      tokenHash: 'ab',
      invitedBy: 'ann',
      expiresAt: at(59),
      at: at(2),
    },
  },
  { type: 'MemberJoined', data: { invitationId: 'i1', userId: 'bob', role: 'editor', at: at(3) } },
  { type: 'MemberRoleChanged', data: { userId: 'bob', before: 'editor', after: 'owner', at: at(4) } },
  {
    type: 'MemberInvited',
    data: {
      invitationId: 'i2',
      email: 'cy@example.com',
      role: 'owner',
      tokenHash: 'cd',
      invitedBy: 'ann',
      expiresAt: at(59),
      at: at(5),
    },
  },
  { type: 'MemberRemoved', data: { userId: 'ann', role: 'owner', at: at(6) } },
  { type: 'InvitationRevoked', data: { invitationId: 'i2', reason: 'inviter-removed', at: at(6) } },
];

describe("a workspace's snapshot", () => {
  it('holds every state of a history exactly, its members a Map again, and names the shape', () => {
    // A new hash means the state or evolve changed: bump workspaceSnapshot.shape, then store the new hash.
    expect({
      shape: workspaceSnapshot.shape,
      fingerprint: snapshotFingerprint(decider, workspaceSnapshot, [history]),
    }).toEqual({
      shape: 'workspace.2',
      fingerprint: '04e35fac7ec9c03cbf01a3902cdb8edef9649a9720a060b106d636d9abb9c51d',
    });
  });

  it('keeps the members in their order, and refuses a member of no known role', () => {
    const state = history.reduce(decider.evolve, decider.initialState());
    const json = JSON.parse(JSON.stringify(workspaceSnapshot.encode(state)));
    expect(json.members).toEqual([['bob', 'owner']]);
    expect(workspaceSnapshot.decode({ ...json, members: [['bob', 'king']] })).toBeNull();
    expect(workspaceSnapshot.decode({ ...json, members: {} })).toBeNull();
  });
});
