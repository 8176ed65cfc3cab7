import { hasFields, type StateSnapshot } from '../snapshot';
import { type Role, WORKSPACE_ROLES, type WorkspaceState } from './events';

/**
 * A workspace's state as a snapshot. Its members are a Map, which JSON does not hold: they are stored as
 * [userId, role] pairs in the Map's order, and made a Map again.
 */
export const workspaceSnapshot: StateSnapshot<WorkspaceState> = {
  // Bump with any change to WorkspaceState or to evolve (see StateSnapshot.shape and snapshot.test.ts).
  shape: 'workspace.2',
  encode: (state) => ({ ...state, members: [...state.members] }),
  decode: (json) => {
    if (
      !hasFields(json, {
        workspaceId: 'string|null',
        name: 'string',
        members: 'array',
        invitations: 'array',
        createdAt: 'string|null',
        updatedAt: 'string|null',
      })
    )
      return null;
    const members = json.members as unknown[];
    if (!members.every(isMember)) return null;
    return { ...(json as unknown as WorkspaceState), members: new Map(members) };
  },
};

const isMember = (pair: unknown): pair is [string, Role] =>
  Array.isArray(pair) &&
  pair.length === 2 &&
  typeof pair[0] === 'string' &&
  (WORKSPACE_ROLES as readonly unknown[]).includes(pair[1]);
