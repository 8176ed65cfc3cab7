import type { Role } from './events';

/**
 * What one may do to a record: read it, change it (edit a flow, delete a record), run it (start and run
 * steps, stop, reset), review it (approve, edit or reject a step's result), watch it live, or manage a
 * workspace's members and invitations.
 */
export type Action = 'read' | 'change' | 'run' | 'review' | 'watch' | 'manage';

export const ACTIONS: readonly Action[] = ['read', 'change', 'run', 'review', 'watch', 'manage'];

/**
 * What each role may do to its workspace's records (and to the workspace itself): the one table the server's
 * access rule decides by and the web app shows its controls by.
 */
export const ROLE_ACTIONS: Record<Role, readonly Action[]> = {
  owner: ['read', 'change', 'run', 'review', 'watch', 'manage'],
  editor: ['read', 'change', 'run', 'review', 'watch'],
  reviewer: ['read', 'review', 'watch'],
  auditor: ['read', 'watch'],
};

/**
 * A workspace's flow goes back to its owner's own flows only by its owner's hand (the person who made it or
 * brought it in): a member who may change it may not make it someone's private flow.
 */
export const mayTakeBack = (actor: string, ownerId: string): boolean => actor === ownerId;

/** May a member in `role` do `action` to the workspace's records? No role (not a member): nothing. */
export const roleMay = (role: Role | null | undefined, action: Action): boolean =>
  role != null && ROLE_ACTIONS[role].includes(action);
