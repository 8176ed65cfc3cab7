import { describe, expect, it } from 'vitest';
import { DomainError } from '../domain/errors';
import {
  ACTIONS,
  type Action,
  may,
  RECORD_KINDS,
  type RecordKind,
  ROLES,
  type Role,
  requireMay,
  requireOwnRecords,
  tokenRefusal,
  withinReach,
} from './access';

const OWNER = '4f9a1c2e-0000-4000-8000-000000000001';
const OTHER = '4f9a1c2e-0000-4000-8000-000000000002';
const WORKSPACE = '4f9a1c2e-0000-4000-8000-0000000000ff';

const OWN_KINDS = RECORD_KINDS.filter((kind) => kind !== 'workspace');
const SHARED_KINDS: RecordKind[] = ['flow', 'execution', 'workspace'];

/** What each role may do to its workspace's flows, executions and the workspace itself. */
const ALLOWED: Record<Role, Action[]> = {
  owner: ['read', 'change', 'run', 'review', 'watch', 'manage'],
  editor: ['read', 'change', 'run', 'review', 'watch'],
  reviewer: ['read', 'review', 'watch'],
  auditor: ['read', 'watch'],
};

const refusalOf = (run: () => void) => {
  try {
    run();
  } catch (error) {
    return error as DomainError;
  }
  return undefined;
};

describe('may: who may do what to which record', () => {
  it.each(OWN_KINDS.flatMap((kind) => ACTIONS.map((action) => [kind, action] as const)))(
    'lets the owner %s-%s their own record, never another user, and the server itself always',
    (kind, action) => {
      expect(may(OWNER, action, kind, OWNER)).toBe(true);
      expect(may(OTHER, action, kind, OWNER)).toBe(false);
      expect(may(null, action, kind, OWNER)).toBe(true);
    },
  );

  it('answers no for a record that does not exist, whoever asks', () => {
    expect(may(OWNER, 'read', 'flow', undefined)).toBe(false);
    expect(may(null, 'read', 'execution', undefined)).toBe(false);
  });

  it('answers no for a record without an owner to a user, yes to the server', () => {
    expect(may(OWNER, 'read', 'master-session', null)).toBe(false);
    expect(may(null, 'read', 'master-session', null)).toBe(true);
  });

  it.each(
    ROLES.flatMap((role) =>
      SHARED_KINDS.flatMap((kind) => ACTIONS.map((action) => [role, kind, action] as const)),
    ),
  )('lets a workspace %s do to its %s what the role allows: %s', (role, kind, action) => {
    expect(may(OTHER, action, kind, { workspaceId: WORKSPACE, role })).toBe(ALLOWED[role].includes(action));
  });

  it.each(SHARED_KINDS.flatMap((kind) => ACTIONS.map((action) => [kind, action] as const)))(
    "lets no one who is not a member %s-%s a workspace's record, not even its maker",
    (kind, action) => {
      expect(may(OTHER, action, kind, { workspaceId: WORKSPACE, role: null })).toBe(false);
      expect(may(null, action, kind, { workspaceId: WORKSPACE, role: null })).toBe(true);
    },
  );

  it("keeps a member's own records theirs alone: a role counts only in its workspace", () => {
    expect(may(OTHER, 'read', 'personal', { workspaceId: WORKSPACE, role: 'owner' })).toBe(false);
    expect(may(OTHER, 'read', 'master-session', { workspaceId: WORKSPACE, role: 'owner' })).toBe(false);
    expect(may(OWNER, 'read', 'workspace', OWNER)).toBe(false);
  });
});

describe('requireMay: the refusal a request gets', () => {
  it('is a 404 with the record named to whoever may not read it, so nothing is learnt of it', () => {
    const refusal = refusalOf(() =>
      requireMay(OTHER, 'change', 'flow', { workspaceId: WORKSPACE, role: null }, 'Flow'),
    );
    expect(refusal).toMatchObject({ kind: 'not_found', message: 'Không tìm thấy flow' });
    expect(refusalOf(() => requireMay(OTHER, 'read', 'execution', OWNER, 'Execution'))).toMatchObject({
      kind: 'not_found',
      message: 'Không tìm thấy execution',
    });
  });

  it('is a 403 naming the role to a member who may read the record but not do this to it', () => {
    const refusal = refusalOf(() =>
      requireMay(OTHER, 'run', 'execution', { workspaceId: WORKSPACE, role: 'auditor' }, 'Execution'),
    );
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal).toMatchObject({ kind: 'forbidden' });
    expect(refusal?.message).toContain('auditor');
  });

  it('lets through what the rule allows', () => {
    expect(
      refusalOf(() =>
        requireMay(OTHER, 'review', 'execution', { workspaceId: WORKSPACE, role: 'reviewer' }, 'X'),
      ),
    ).toBeUndefined();
    expect(refusalOf(() => requireMay(OWNER, 'change', 'flow', OWNER, 'Flow'))).toBeUndefined();
  });
});

describe('a workspace token: its maker, narrowed to one workspace', () => {
  const reach = { userId: OWNER, workspaceId: WORKSPACE };
  const elsewhere = '4f9a1c2e-0000-4000-8000-0000000000ee';

  it('acts on that workspace as the role allows, and on nothing of the maker’s own or of another workspace', () => {
    withinReach(reach, () => {
      expect(may(OWNER, 'run', 'flow', { workspaceId: WORKSPACE, role: 'editor' })).toBe(true);
      expect(may(OWNER, 'run', 'flow', { workspaceId: WORKSPACE, role: 'auditor' })).toBe(false);
      expect(may(OWNER, 'read', 'flow', { workspaceId: elsewhere, role: 'owner' })).toBe(false);
      expect(may(OWNER, 'read', 'flow', OWNER)).toBe(false);
      expect(may(OWNER, 'read', 'personal', OWNER)).toBe(false);
      expect(refusalOf(() => requireMay(OWNER, 'read', 'flow', OWNER, 'Flow'))?.kind).toBe('not_found');
      expect(refusalOf(() => requireOwnRecords(OWNER))?.kind).toBe('not_found');
      // Only the maker is narrowed: another person is decided for as always.
      expect(may(OTHER, 'read', 'flow', OTHER)).toBe(true);
    });
    expect(may(OWNER, 'read', 'flow', OWNER)).toBe(true);
    expect(refusalOf(() => requireOwnRecords(OWNER))).toBeUndefined();
  });

  it('keeps the narrowing across what the work awaits', async () => {
    await withinReach(reach, async () => {
      await new Promise((resolve) => setImmediate(resolve));
      expect(may(OWNER, 'read', 'flow', OWNER)).toBe(false);
    });
  });
});

describe('tokenRefusal: what a token may call at all', () => {
  const token = { scopes: ['read', 'run'] as const, workspaceId: null };
  it('lets a token call what its scopes name, and nothing else', () => {
    expect(tokenRefusal(token, 'POST', '/api/flows/:flowId/execute')).toBeNull();
    expect(tokenRefusal(token, 'HEAD', '/api/flows/:id')).toBeNull();
    expect(tokenRefusal(token, 'PUT', '/api/flows/:id')).toEqual({
      kind: 'insufficient-scope',
      needed: 'write',
    });
    expect(tokenRefusal(token, 'GET', '/api/no-such-route')).toEqual({
      kind: 'insufficient-scope',
      needed: 'session',
    });
    expect(tokenRefusal(token, 'POST', '/api/user/tokens')).toEqual({ kind: 'session-only' });
    expect(tokenRefusal(token, 'GET', '/api/user/api-keys')).toBeNull();
    expect(tokenRefusal({ ...token, workspaceId: WORKSPACE }, 'GET', '/api/user/api-keys')).toEqual({
      kind: 'outside-workspace',
    });
  });
});
