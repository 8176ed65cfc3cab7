import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Action } from '../src/api/access';
import { ACCESS, Browser, type Fixtures, makeFixtures, operationOf, urlOf } from './support/access-table';
import { anotherAddress, createTestApp, OFFLINE_WITH_KEYS, signUp, type TestApp } from './support/test-app';

/**
 * Every operation of the API against the records of a workspace, called by its owner, an editor, a reviewer,
 * an auditor, someone who is not a member, and no one signed in: each gets what their role allows (2xx), a
 * member whose role does not allow it 403, anyone else 404 or 401. An auditor's refused calls append nothing.
 */

type Role = 'owner' | 'editor' | 'reviewer' | 'auditor';

/** What each role may do to a workspace's records, written out here to check the access rule against. */
const MAY: Record<Role, Action[]> = {
  owner: ['read', 'change', 'run', 'review', 'watch', 'manage'],
  editor: ['read', 'change', 'run', 'review', 'watch'],
  reviewer: ['read', 'review', 'watch'],
  auditor: ['read', 'watch'],
};

/** Sign-in and sign-up start a session of their own: they are the access test's, not a role's. */
const keys = Object.keys(ACCESS).filter((key) => ACCESS[key]!.access !== 'public');

/** What a member in `role` must get from the operation. */
function expected(key: string, role: Role): '2xx' | 403 | 404 {
  const entry = ACCESS[key]!;
  if (entry.access === 'caller') return '2xx';
  if (entry.needs === undefined) return 404;
  return MAY[role].includes(entry.needs) ? '2xx' : 403;
}

const expectStatus = (status: number, want: '2xx' | 403 | 404 | 401, body: string) => {
  if (want === '2xx') {
    expect(status, body).toBeGreaterThanOrEqual(200);
    expect(status, body).toBeLessThan(300);
  } else expect(status, body).toBe(want);
};

describe("who may call each operation on a workspace's records, by role", () => {
  let t: TestApp;
  const browsers = {} as Record<Role | 'non-member' | 'signed out', Browser>;
  const emails = {} as Record<Role | 'non-member', string>;
  /** Each role that may change something calls on records of its own, so no call finds another's work done. */
  const fixtures = {} as Record<Role, Fixtures>;
  let workspace: string;

  const eventCount = async () => {
    const [row] = await t.db.sql<{ count: number }[]>`SELECT count(*)::int AS count FROM events`;
    return row!.count;
  };

  beforeAll(async () => {
    t = await createTestApp({ freeStepAllowance: 1_000 }, OFFLINE_WITH_KEYS);
    const ownerIds = new Set<string>();
    for (const who of ['owner', 'editor', 'reviewer', 'auditor', 'non-member'] as const) {
      const account = await signUp(t.app, who, { remoteAddress: anotherAddress() });
      browsers[who] = new Browser(t.app, account.cookie, who === 'owner' ? ownerIds : undefined);
      emails[who] = account.email;
    }
    browsers['signed out'] = new Browser(t.app, undefined);
    const owner = browsers.owner;
    workspace = (await owner.made(201, 'POST', '/api/workspaces', { name: 'Roles' })).id;
    for (const role of ['editor', 'reviewer', 'auditor'] as const) {
      const { acceptUrl } = await owner.made(201, 'POST', `/api/workspaces/${workspace}/invitations`, {
        email: emails[role],
        role,
      });
      const token = new URL(acceptUrl).pathname.split('/').at(-1);
      expect(await browsers[role].made(200, 'POST', `/api/invitations/${token}/accept`)).toEqual({
        workspaceId: workspace,
        role,
      });
    }
    for (const role of ['owner', 'editor', 'reviewer'] as const)
      fixtures[role] = await makeFixtures(t.app, owner, emails.owner, workspace, ownerIds);
    // The auditor may change nothing: it calls on the owner's records, before the owner does.
    fixtures.auditor = fixtures.owner;
    const flow = await owner.made(200, 'GET', `/api/flows/${fixtures.owner.flow}`);
    expect(flow.workspaceId).toBe(workspace);
  }, 120_000);
  afterAll(() => t?.close());

  it('lists the workspace with its role for each member, and not for anyone else', async () => {
    for (const role of ['owner', 'editor', 'reviewer', 'auditor'] as const) {
      expect(await browsers[role].made(200, 'GET', '/api/workspaces')).toEqual([
        { id: workspace, name: 'Roles', role },
      ]);
    }
    expect(await browsers['non-member'].made(200, 'GET', '/api/workspaces')).toEqual([]);
  });

  describe('signed out', () => {
    it.each(keys)('%s', async (key) => {
      const { method } = operationOf(key);
      const f = fixtures.owner;
      const response = await browsers['signed out'].call(
        method,
        urlOf(key, f),
        ACCESS[key]!.body?.(f, {
          name: 'signed out',
          email: emails.owner,
        }),
      );
      expectStatus(response.statusCode, 401, response.body);
    });
  });

  describe('not a member', () => {
    it.each(keys)('%s', async (key) => {
      const { method } = operationOf(key);
      const f = fixtures.owner;
      const before = await eventCount();
      const caller = browsers['non-member'];
      const response = await caller.call(
        method,
        urlOf(key, f),
        ACCESS[key]!.body?.(f, {
          name: 'non-member',
          email: emails['non-member'],
        }),
      );
      const entry = ACCESS[key]!;
      expectStatus(response.statusCode, entry.access === 'caller' ? '2xx' : 404, response.body);
      if (entry.access === 'owner') expect(await eventCount()).toBe(before);
    });
  });

  // Those that may change least first: a refused call must find the records as the owner made them.
  describe.each(['auditor', 'reviewer', 'editor', 'owner'] as const)('the workspace %s', (role) => {
    it.each(keys)('%s', async (key) => {
      const { method } = operationOf(key);
      const f = fixtures[role];
      const entry = ACCESS[key]!;
      const before = await eventCount();
      const caller = role === 'owner' ? browsers.owner : browsers[role];
      const response = await caller.call(
        method,
        urlOf(key, f),
        entry.body?.(f, { name: role, email: emails[role] }),
      );
      // The owner owns the personal records the calls name too: every call is theirs to make.
      const want = role === 'owner' ? '2xx' : expected(key, role);
      expectStatus(response.statusCode, want, response.body);
      if (want === 403) {
        expect(response.json()).toMatchObject({ code: 'forbidden', detail: expect.stringContaining(role) });
      }
      if (want !== '2xx') expect(await eventCount(), 'a refused call appends nothing').toBe(before);
    });
  });
});
