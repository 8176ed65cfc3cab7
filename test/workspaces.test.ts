import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVITATIONS_PER_HOUR, MAX_WORKSPACES_PER_USER } from '../src/domain/limits';
import { LAST_OWNER, TOO_MANY_WORKSPACES } from '../src/domain/workspace/decider';
import { as, type Client, createTestApp, type TestApp } from './support/test-app';

interface Person {
  client: Client;
  id: string;
  email: string;
}

let t: TestApp;
let ada: Person;

let people = 0;

/** A new account, signed up from an address of its own (sign-up is limited per address). */
const person = async (firstName: string): Promise<Person> => {
  people++;
  const email = `member${people}-${Date.now()}@example.com`;
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { email, password: 'correct horse battery', firstName, lastName: 'Nguyen' },
    remoteAddress: `198.51.100.${people}`,
  });
  expect(response.statusCode, response.body).toBe(201);
  const cookie = [response.headers['set-cookie'] ?? []]
    .flat()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { client: as(t.app, cookie), id: response.json().id, email };
};

const tokenOf = (acceptUrl: string) => acceptUrl.split('/').at(-1)!;

async function newWorkspace(owner: Person, name = 'Team') {
  const response = await owner.client.post('/api/workspaces', { name });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; name: string; role: string };
}

async function invite(owner: Person, workspaceId: string, email: string, role: string) {
  const response = await owner.client.post(`/api/workspaces/${workspaceId}/invitations`, { email, role });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; email: string; role: string; acceptUrl: string; expiresAt: string };
}

/** `member` joins the workspace in `role`, invited by `owner`. */
async function join(owner: Person, workspaceId: string, member: Person, role: string) {
  const { acceptUrl } = await invite(owner, workspaceId, member.email, role);
  const accepted = await member.client.post(`/api/invitations/${tokenOf(acceptUrl)}/accept`);
  expect(accepted.statusCode, accepted.body).toBe(200);
}

async function eventsOf(workspaceId: string, type: string) {
  return t.db.sql<{ data: unknown }[]>`
    SELECT data FROM events WHERE stream_id = ${`workspace-${workspaceId}`} AND event_type = ${type}`;
}

beforeAll(async () => {
  t = await createTestApp();
  ada = await person('Ada');
});
afterAll(() => t.close());

describe('workspaces', () => {
  it('creates a workspace whose maker is its owner, and lists it for them only', async () => {
    const bo = await person('Bo');
    const workspace = await newWorkspace(ada, '  Research  ');
    expect(workspace).toMatchObject({ name: 'Research', role: 'owner' });
    const listed = (await ada.client.get('/api/workspaces')).json();
    expect(listed).toContainEqual({ id: workspace.id, name: 'Research', role: 'owner' });
    expect((await bo.client.get('/api/workspaces')).json()).toEqual([]);
    const members = (await ada.client.get(`/api/workspaces/${workspace.id}/members`)).json();
    expect(members).toEqual([{ userId: ada.id, name: 'Ada Nguyen', email: ada.email, role: 'owner' }]);
  });

  it('lists workspaces page by page with limit and cursor', async () => {
    const cy = await person('Cy');
    for (const name of ['One', 'Two', 'Three']) await newWorkspace(cy, name);
    const first = (await cy.client.get('/api/workspaces?limit=2')).json();
    expect(first.items.map((w: { name: string }) => w.name)).toEqual(['Three', 'Two']);
    const second = (await cy.client.get(`/api/workspaces?limit=2&cursor=${first.nextCursor}`)).json();
    expect(second).toEqual({ items: [expect.objectContaining({ name: 'One' })], nextCursor: null });
  });

  it('refuses a blank, overlong or unstorable name with a message', async () => {
    for (const name of ['   ', 'x'.repeat(201), 'a\u0000b']) {
      const response = await ada.client.post('/api/workspaces', { name });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().message).toMatch(/name/);
    }
  });

  it('invites by a link with a one-time token; only its hash is recorded', async () => {
    const workspace = await newWorkspace(ada);
    const invitation = await invite(ada, workspace.id, 'Someone@Example.com', 'editor');
    expect(invitation).toMatchObject({ email: 'someone@example.com', role: 'editor' });
    expect(invitation.acceptUrl).toMatch(/^http:\/\/localhost(:\d+)?\/invitations\/[A-Za-z0-9_-]{43}$/);
    const days = (Date.parse(invitation.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    const token = tokenOf(invitation.acceptUrl);
    const [event] = await eventsOf(workspace.id, 'MemberInvited');
    expect(JSON.stringify(event)).not.toContain(token);
    const [{ count }] = await t.db.sql<[{ count: number }]>`
      SELECT count(*)::int AS count FROM events WHERE data::text LIKE ${`%${token}%`}`;
    expect(count).toBe(0);
    const metadata = await t.db.sql<{ metadata: { userId: string } }[]>`
      SELECT metadata FROM events WHERE stream_id = ${`workspace-${workspace.id}`}`;
    expect(metadata.map((row) => row.metadata.userId)).toEqual([ada.id, ada.id]);
  });

  it('answers an invitation alike whether or not its address has an account', async () => {
    const workspace = await newWorkspace(ada);
    const bo = await person('Bo');
    const known = await invite(ada, workspace.id, bo.email, 'reviewer');
    const unknown = await invite(ada, workspace.id, 'nobody-here@example.com', 'reviewer');
    expect(Object.keys(known).sort()).toEqual(Object.keys(unknown).sort());
  });

  it('makes the one whose address it was sent to a member in the invited role, once', async () => {
    const workspace = await newWorkspace(ada, 'Shared');
    const bo = await person('Bo');
    const eve = await person('Eve');
    const { acceptUrl } = await invite(ada, workspace.id, bo.email.toUpperCase(), 'reviewer');
    const url = `/api/invitations/${tokenOf(acceptUrl)}/accept`;

    const stranger = await eve.client.post(url);
    expect(stranger.statusCode, stranger.body).toBe(404);

    const accepted = await bo.client.post(url);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toEqual({ workspaceId: workspace.id, role: 'reviewer' });
    expect((await bo.client.get('/api/workspaces')).json()).toEqual([
      { id: workspace.id, name: 'Shared', role: 'reviewer' },
    ]);
    const members = (await bo.client.get(`/api/workspaces/${workspace.id}/members`)).json();
    expect(members.map((m: { userId: string; role: string }) => [m.userId, m.role])).toEqual([
      [ada.id, 'owner'],
      [bo.id, 'reviewer'],
    ]);

    const again = await bo.client.post(url);
    expect(again.statusCode, again.body).toBe(404);
    expect(await eventsOf(workspace.id, 'MemberJoined')).toHaveLength(1);
  });

  it('refuses an expired invitation as missing', async () => {
    const workspace = await newWorkspace(ada);
    const bo = await person('Bo');
    const { acceptUrl } = await invite(ada, workspace.id, bo.email, 'editor');
    const commands = t.app.workspaceCommands;
    const clock = commands.now;
    commands.now = () => new Date(Date.now() + 7 * 86_400_000 + 1_000);
    try {
      const response = await bo.client.post(`/api/invitations/${tokenOf(acceptUrl)}/accept`);
      expect(response.statusCode, response.body).toBe(404);
    } finally {
      commands.now = clock;
    }
    expect(await eventsOf(workspace.id, 'MemberJoined')).toHaveLength(0);
  });

  it('refuses a token that is not one, and one nobody made', async () => {
    expect((await ada.client.post('/api/invitations/not-a-token/accept')).statusCode).toBe(400);
    const made = await ada.client.post(`/api/invitations/${'A'.repeat(43)}/accept`);
    expect(made.statusCode, made.body).toBe(404);
  });

  it('lets one of two accepts of the same invitation sent at once make the member', async () => {
    const workspace = await newWorkspace(ada);
    const bo = await person('Bo');
    const { acceptUrl } = await invite(ada, workspace.id, bo.email, 'auditor');
    const url = `/api/invitations/${tokenOf(acceptUrl)}/accept`;
    const answers = await Promise.all([bo.client.post(url), bo.client.post(url), bo.client.post(url)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 404, 404]);
    expect(await eventsOf(workspace.id, 'MemberJoined')).toHaveLength(1);
  });

  it('refuses to invite someone who is a member already (409)', async () => {
    const workspace = await newWorkspace(ada);
    const bo = await person('Bo');
    await join(ada, workspace.id, bo, 'editor');
    for (const email of [bo.email, ada.email.toUpperCase()]) {
      const response = await ada.client.post(`/api/workspaces/${workspace.id}/invitations`, {
        email,
        role: 'editor',
      });
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json().message).toMatch(/already a member/);
    }
  });

  it("changes a member's role, and never leaves the workspace without an owner", async () => {
    const workspace = await newWorkspace(ada);
    const bo = await person('Bo');
    await join(ada, workspace.id, bo, 'editor');
    const members = `/api/workspaces/${workspace.id}/members`;

    for (const call of [
      () => ada.client.put(`${members}/${ada.id}`, { role: 'editor' }),
      () => ada.client.delete(`${members}/${ada.id}`),
    ]) {
      const refused = await call();
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().message).toBe(LAST_OWNER);
    }

    const promoted = await ada.client.put(`${members}/${bo.id}`, { role: 'owner' });
    expect(promoted.statusCode, promoted.body).toBe(200);
    expect(promoted.json()).toMatchObject({ userId: bo.id, role: 'owner' });
    expect(await eventsOf(workspace.id, 'MemberRoleChanged')).toEqual([
      { data: expect.objectContaining({ userId: bo.id, before: 'editor', after: 'owner' }) },
    ]);
    // Two owners: either may now step down or leave, but not both.
    expect((await ada.client.put(`${members}/${ada.id}`, { role: 'auditor' })).statusCode).toBe(200);
    const last = await bo.client.delete(`${members}/${bo.id}`);
    expect(last.statusCode, last.body).toBe(400);
    expect((await ada.client.put(`${members}/${ada.id}`, { role: 'owner' })).statusCode).toBe(403);
    expect((await ada.client.delete(`${members}/${ada.id}`)).statusCode).toBe(204);
    expect((await ada.client.get(members)).statusCode).toBe(404);
    expect((await bo.client.get(members)).json()).toEqual([expect.objectContaining({ userId: bo.id })]);
    const missing = await bo.client.put(`${members}/${ada.id}`, { role: 'editor' });
    expect(missing.statusCode, missing.body).toBe(404);
  });

  it('lets a member leave, and an owner remove a member', async () => {
    const workspace = await newWorkspace(ada);
    const bo = await person('Bo');
    const cy = await person('Cy');
    await join(ada, workspace.id, bo, 'reviewer');
    await join(ada, workspace.id, cy, 'auditor');
    const members = `/api/workspaces/${workspace.id}/members`;
    expect((await bo.client.delete(`${members}/${bo.id}`)).statusCode).toBe(204);
    expect((await bo.client.get('/api/workspaces')).json()).toEqual([]);
    expect((await ada.client.delete(`${members}/${cy.id}`)).statusCode).toBe(204);
    expect((await ada.client.get(members)).json()).toEqual([expect.objectContaining({ userId: ada.id })]);
    expect(await eventsOf(workspace.id, 'MemberRemoved')).toHaveLength(2);
  });

  it('answers 404 on every workspace route to one who is not a member', async () => {
    const workspace = await newWorkspace(ada);
    const bo = await person('Bo');
    const eve = await person('Eve');
    await join(ada, workspace.id, bo, 'editor');
    const base = `/api/workspaces/${workspace.id}`;
    const calls = [
      eve.client.get(`${base}/members`),
      eve.client.post(`${base}/invitations`, { email: eve.email, role: 'owner' }),
      eve.client.put(`${base}/members/${bo.id}`, { role: 'auditor' }),
      eve.client.put(`${base}/members/${eve.id}`, { role: 'owner' }),
      eve.client.delete(`${base}/members/${bo.id}`),
      eve.client.delete(`${base}/members/${eve.id}`),
      eve.client.get('/api/workspaces/00000000-0000-4000-8000-000000000000/members'),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json().message).toBe('Workspace not found');
    }
    expect((await eve.client.get('/api/workspaces')).json()).toEqual([]);
  });

  it('answers 403 with a message to an editor, reviewer or auditor on what only owners may do', async () => {
    const workspace = await newWorkspace(ada);
    const roles = ['editor', 'reviewer', 'auditor'];
    const people: Person[] = [];
    for (const role of roles) {
      const member = await person(role);
      await join(ada, workspace.id, member, role);
      people.push(member);
    }
    const base = `/api/workspaces/${workspace.id}`;
    for (const [i, member] of people.entries()) {
      const other = people[(i + 1) % people.length]!;
      for (const response of [
        await member.client.post(`${base}/invitations`, { email: 'new@example.com', role: 'auditor' }),
        await member.client.put(`${base}/members/${other.id}`, { role: 'auditor' }),
        await member.client.put(`${base}/members/${member.id}`, { role: 'owner' }),
        await member.client.delete(`${base}/members/${other.id}`),
        await member.client.delete(`${base}/members/${ada.id}`),
      ]) {
        expect(response.statusCode, response.body).toBe(403);
        expect(response.json().message).toBe(
          `The ${roles[i]} role in this workspace may not manage the members of this workspace`,
        );
      }
      expect((await member.client.get(`${base}/members`)).statusCode).toBe(200);
    }
  });

  it('answers a repeated create or invitation with its first outcome (Idempotency-Key)', async () => {
    const fay = await person('Fay');
    const key = { 'idempotency-key': `create-${Date.now()}` };
    const first = await fay.client.post('/api/workspaces', { name: 'Once' }, key);
    const second = await fay.client.post('/api/workspaces', { name: 'Once' }, key);
    expect(first.statusCode).toBe(201);
    expect(second.json()).toEqual(first.json());
    expect((await fay.client.get('/api/workspaces')).json()).toHaveLength(1);

    const workspaceId = first.json().id;
    const inviteKey = { 'idempotency-key': `invite-${Date.now()}` };
    const body = { email: 'guest@example.com', role: 'editor' };
    const url = `/api/workspaces/${workspaceId}/invitations`;
    const invited = await fay.client.post(url, body, inviteKey);
    const invitedAgain = await fay.client.post(url, body, inviteKey);
    expect(invited.statusCode).toBe(201);
    expect(invitedAgain.json()).toEqual(invited.json());
    expect(await eventsOf(workspaceId, 'MemberInvited')).toHaveLength(1);
    const reused = await fay.client.post(url, { ...body, role: 'auditor' }, inviteKey);
    expect(reused.statusCode).toBe(422);
  });

  it(`limits invitations to ${INVITATIONS_PER_HOUR} an hour per user`, async () => {
    const gil = await person('Gil');
    const workspace = await newWorkspace(gil);
    for (let i = 0; i < INVITATIONS_PER_HOUR; i++) {
      await invite(gil, workspace.id, `guest${i}@example.com`, 'auditor');
    }
    const over = await gil.client.post(`/api/workspaces/${workspace.id}/invitations`, {
      email: 'one-more@example.com',
      role: 'auditor',
    });
    expect(over.statusCode, over.body).toBe(429);
    expect(over.json().message).toMatch(`At most ${INVITATIONS_PER_HOUR} invitations an hour`);
    // Another owner's invitations are counted apart.
    await invite(ada, (await newWorkspace(ada)).id, 'one-more@example.com', 'auditor');
  });

  it(`limits a user to ${MAX_WORKSPACES_PER_USER} workspaces, made or joined`, async () => {
    const hal = await person('Hal');
    for (let i = 0; i < MAX_WORKSPACES_PER_USER; i++) await newWorkspace(hal, `W${i}`);
    const made = await hal.client.post('/api/workspaces', { name: 'One too many' });
    expect(made.statusCode, made.body).toBe(400);
    expect(made.json().message).toBe(TOO_MANY_WORKSPACES);
    const workspace = await newWorkspace(ada);
    const { acceptUrl } = await invite(ada, workspace.id, hal.email, 'editor');
    const joined = await hal.client.post(`/api/invitations/${tokenOf(acceptUrl)}/accept`);
    expect(joined.statusCode, joined.body).toBe(400);
    expect(joined.json().message).toBe(TOO_MANY_WORKSPACES);
  });

  it('serves the web app at an invitation link, signed in or not', async () => {
    const workspace = await newWorkspace(ada);
    const { acceptUrl } = await invite(ada, workspace.id, 'later@example.com', 'editor');
    const response = await t.app.inject({
      method: 'GET',
      url: new URL(acceptUrl).pathname,
      headers: { accept: 'text/html' },
    });
    // The built web app's index.html, or the note that it is not built yet: never a 404 or sign-in.
    expect([200, 503]).toContain(response.statusCode);
    expect(response.headers['content-type']).toMatch(
      response.statusCode === 200 ? /text\/html/ : /text\/plain/,
    );
  });
});
