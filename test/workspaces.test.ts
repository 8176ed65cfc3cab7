import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVITATIONS_PER_HOUR, MAX_WORKSPACES_PER_USER } from '../src/domain/limits';
import { INVITATION_NOT_FOUND, LAST_OWNER, TOO_MANY_WORKSPACES } from '../src/domain/workspace/decider';
import { anotherAddress, as, type Client, createTestApp, signUp, type TestApp } from './support/test-app';

interface Person {
  client: Client;
  id: string;
  email: string;
}

let t: TestApp;
let ada: Person;

/** A new account, signed up from an address of its own (sign-up is limited per address). */
const person = async (firstName: string): Promise<Person> => {
  const { cookie, user, email } = await signUp(t.app, firstName, { remoteAddress: anotherAddress() });
  return { client: as(t.app, cookie), id: user.id, email };
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

  it("shows the invitee, before accepting, the workspace's name, who invited, the role and the expiry; to no one else", async () => {
    const workspace = await newWorkspace(ada, 'Biên tập');
    const bo = await person('Bo');
    const eve = await person('Eve');
    const invitation = await invite(ada, workspace.id, bo.email.toUpperCase(), 'reviewer');
    const url = `/api/invitations/${tokenOf(invitation.acceptUrl)}`;

    const read = await bo.client.get(url);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toEqual({
      workspaceName: 'Biên tập',
      inviterName: 'Ada Nguyen',
      role: 'reviewer',
      expiresAt: invitation.expiresAt,
      accepted: false,
    });
    // Reading it changes nothing: it is still open.
    expect(await eventsOf(workspace.id, 'MemberJoined')).toHaveLength(0);

    expect((await eve.client.get(url)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);

    // Accepted, it tells the one who accepted it so (their page then offers no Accept), and no one else.
    expect((await bo.client.post(`${url}/accept`)).statusCode).toBe(200);
    const used = await bo.client.get(url);
    expect(used.statusCode, used.body).toBe(200);
    expect(used.json()).toMatchObject({ workspaceName: 'Biên tập', role: 'reviewer', accepted: true });
    const byOther = await eve.client.get(url);
    expect(byOther.statusCode).toBe(404);
    expect(byOther.json().detail ?? byOther.json().message).toBe(INVITATION_NOT_FOUND);
    expect((await bo.client.post(`${url}/accept`)).statusCode).toBe(404);
  });

  it('reads an expired invitation, or a token nobody made, as missing', async () => {
    const workspace = await newWorkspace(ada);
    const bo = await person('Bo');
    const { acceptUrl } = await invite(ada, workspace.id, bo.email, 'editor');
    const url = `/api/invitations/${tokenOf(acceptUrl)}`;
    const commands = t.app.workspaceCommands;
    const clock = commands.now;
    commands.now = () => new Date(Date.now() + 7 * 86_400_000 + 1_000);
    try {
      expect((await bo.client.get(url)).statusCode).toBe(404);
    } finally {
      commands.now = clock;
    }
    expect((await bo.client.get(url)).statusCode).toBe(200);
    expect((await bo.client.get(`/api/invitations/${'A'.repeat(43)}`)).statusCode).toBe(404);
    expect((await bo.client.get('/api/invitations/not-a-token')).statusCode).toBe(400);
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
      expect(response.json().message).toMatch(/đã là thành viên/);
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
      expect(response.json().message).toBe('Không tìm thấy workspace');
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
          `Vai trò ${roles[i]} trong workspace này không được quản lý thành viên và webhook của workspace này`,
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
    expect(over.json().message).toMatch(`Mỗi giờ chỉ được gửi tối đa ${INVITATIONS_PER_HOUR} lời mời`);
    // Another owner's invitations are counted apart.
    await invite(ada, (await newWorkspace(ada)).id, 'one-more@example.com', 'auditor');
  });

  it('counts only the invitations made: a replay of the same request, or a refused one, takes nothing', async () => {
    const ivy = await person('Ivy');
    const workspace = await newWorkspace(ivy);
    const url = `/api/workspaces/${workspace.id}/invitations`;
    const keyed = { 'idempotency-key': `invite-once-${Date.now()}` };
    const body = { email: 'once@example.com', role: 'editor' };
    // Sent again and again with its key (at once too, as a client retrying would): one invitation.
    const sent = await Promise.all(Array.from({ length: 10 }, () => ivy.client.post(url, body, keyed)));
    for (const each of sent) expect(each.statusCode, each.body).toBe(201);
    // A member's own address is refused: nothing made.
    for (let i = 0; i < 5; i++)
      expect((await ivy.client.post(url, { email: ivy.email, role: 'editor' })).statusCode).toBe(409);
    for (let i = 1; i < INVITATIONS_PER_HOUR; i++)
      await invite(ivy, workspace.id, `more${i}@example.com`, 'auditor');
    const over = await ivy.client.post(url, { email: 'one-more@example.com', role: 'auditor' });
    expect(over.statusCode, over.body).toBe(429);
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

  it(`holds a user to ${MAX_WORKSPACES_PER_USER} workspaces when the last ones are made or joined at once`, {
    timeout: 60_000,
  }, async () => {
    const ivy = await person('Ivy');
    const count = async () =>
      (
        await t.db.sql<{ n: number }[]>`
          SELECT count(*)::int AS n FROM workspace_members WHERE user_id = ${ivy.id}`
      )[0]!.n;
    for (let i = 0; i < MAX_WORKSPACES_PER_USER - 5; i++) await newWorkspace(ivy, `W${i}`);
    const invited = await newWorkspace(ada);
    const { acceptUrl } = await invite(ada, invited.id, ivy.email, 'editor');
    const answers = await Promise.all([
      ...Array.from({ length: 9 }, (_, i) => ivy.client.post('/api/workspaces', { name: `At once ${i}` })),
      ivy.client.post(`/api/invitations/${tokenOf(acceptUrl)}/accept`),
    ]);
    expect(answers.filter((answer) => answer.statusCode < 300)).toHaveLength(5);
    for (const refused of answers.filter((answer) => answer.statusCode >= 300)) {
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().message).toBe(TOO_MANY_WORKSPACES);
    }
    expect(await count()).toBe(MAX_WORKSPACES_PER_USER);
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

describe('pending invitations', () => {
  const listOf = async (who: Person, workspaceId: string, query = '') => {
    const response = await who.client.get(`/api/workspaces/${workspaceId}/invitations${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };

  /** Whether the link is missing to its invitee: read and accept both 404, and nobody joined. */
  async function expectGone(invitee: Person, workspaceId: string, acceptUrl: string) {
    const url = `/api/invitations/${tokenOf(acceptUrl)}`;
    const read = await invitee.client.get(url);
    expect(read.statusCode, read.body).toBe(404);
    expect(read.json().message).toBe(INVITATION_NOT_FOUND);
    const accepted = await invitee.client.post(`${url}/accept`);
    expect(accepted.statusCode, accepted.body).toBe(404);
    const joined = await eventsOf(workspaceId, 'MemberJoined');
    expect(joined.map((event) => (event.data as { userId: string }).userId)).not.toContain(invitee.id);
    expect((await invitee.client.get('/api/workspaces')).json()).toEqual([]);
  }

  it('lists the pending ones to an owner, newest first, with who invited; 403 to an editor, 404 to others', async () => {
    const own = await person('Own');
    const ed = await person('Ed');
    const out = await person('Out');
    const workspace = await newWorkspace(own);
    await join(own, workspace.id, ed, 'editor');
    const first = await invite(own, workspace.id, 'first@example.com', 'reviewer');
    const second = await invite(own, workspace.id, 'second@example.com', 'auditor');

    const listed = await listOf(own, workspace.id);
    expect(listed).toEqual([
      {
        id: second.id,
        email: 'second@example.com',
        role: 'auditor',
        invitedBy: { userId: own.id, name: 'Own Nguyen' },
        createdAt: expect.any(String),
        expiresAt: second.expiresAt,
      },
      expect.objectContaining({ id: first.id, email: 'first@example.com', role: 'reviewer' }),
    ]);
    // The accepted one (Ed's) is not pending.
    expect(listed.map((each: { email: string }) => each.email)).not.toContain(ed.email);

    const page = await listOf(own, workspace.id, '?limit=1');
    expect(page.items.map((each: { id: string }) => each.id)).toEqual([second.id]);
    const rest = await listOf(own, workspace.id, `?limit=1&cursor=${page.nextCursor}`);
    expect(rest).toEqual({ items: [expect.objectContaining({ id: first.id })], nextCursor: null });

    const byEditor = await ed.client.get(`/api/workspaces/${workspace.id}/invitations`);
    expect(byEditor.statusCode, byEditor.body).toBe(403);
    expect(byEditor.json().message).toBe(
      'Vai trò editor trong workspace này không được quản lý thành viên và webhook của workspace này',
    );
    const byOutsider = await out.client.get(`/api/workspaces/${workspace.id}/invitations`);
    expect(byOutsider.statusCode, byOutsider.body).toBe(404);
    expect(byOutsider.json().message).toBe('Không tìm thấy workspace');

    // An expired invitation is not pending either.
    const commands = t.app.workspaceCommands;
    const clock = commands.now;
    commands.now = () => new Date(Date.now() + 7 * 86_400_000 + 1_000);
    try {
      expect(await listOf(own, workspace.id)).toEqual([]);
    } finally {
      commands.now = clock;
    }
  });

  it('revokes one by an owner: its link is then missing, read and accept both', async () => {
    const own = await person('Own');
    const ed = await person('Ed');
    const bo = await person('Bo');
    const workspace = await newWorkspace(own);
    await join(own, workspace.id, ed, 'editor');
    const invitation = await invite(own, workspace.id, bo.email, 'editor');
    const url = `/api/workspaces/${workspace.id}/invitations/${invitation.id}`;

    expect((await ed.client.delete(url)).statusCode).toBe(403);
    expect((await bo.client.delete(url)).statusCode).toBe(404);
    const revoked = await own.client.delete(url);
    expect(revoked.statusCode, revoked.body).toBe(204);
    expect(await eventsOf(workspace.id, 'InvitationRevoked')).toEqual([
      { data: { invitationId: invitation.id, reason: 'revoked', at: expect.any(String) } },
    ]);
    expect(await listOf(own, workspace.id)).toEqual([]);
    await expectGone(bo, workspace.id, invitation.acceptUrl);
    // Only a pending invitation is revoked: again, or one never made, is missing.
    expect((await own.client.delete(url)).statusCode).toBe(404);
    const never = await own.client.delete(
      `/api/workspaces/${workspace.id}/invitations/00000000-0000-4000-8000-000000000000`,
    );
    expect(never.statusCode, never.body).toBe(404);
    expect(never.json().message).toBe(INVITATION_NOT_FOUND);
  });

  it("revokes an owner's pending invitations when they are removed: a second owner invited by them never joins", async () => {
    const own = await person('Own');
    const leaving = await person('Leaving');
    const newcomer = await person('Newcomer');
    const workspace = await newWorkspace(own);
    await join(own, workspace.id, leaving, 'owner');
    const invitation = await invite(leaving, workspace.id, newcomer.email, 'owner');
    const kept = await invite(own, workspace.id, 'kept@example.com', 'editor');

    const removed = await own.client.delete(`/api/workspaces/${workspace.id}/members/${leaving.id}`);
    expect(removed.statusCode, removed.body).toBe(204);
    expect(await eventsOf(workspace.id, 'InvitationRevoked')).toEqual([
      { data: { invitationId: invitation.id, reason: 'inviter-removed', at: expect.any(String) } },
    ]);
    // The removal and the revocation are one command's events.
    const [{ commands }] = await t.db.sql<[{ commands: number }]>`
      SELECT count(DISTINCT metadata->>'commandId')::int AS commands FROM events
      WHERE stream_id = ${`workspace-${workspace.id}`} AND event_type IN ('MemberRemoved', 'InvitationRevoked')`;
    expect(commands).toBe(1);
    await expectGone(newcomer, workspace.id, invitation.acceptUrl);
    expect((await listOf(own, workspace.id)).map((each: { id: string }) => each.id)).toEqual([kept.id]);
    const members = (await own.client.get(`/api/workspaces/${workspace.id}/members`)).json();
    expect(members.map((m: { userId: string }) => m.userId)).toEqual([own.id]);
  });

  it("revokes an owner's pending invitations when they take a role that does not manage members", async () => {
    const own = await person('Own');
    const other = await person('Other');
    const invitee = await person('Invitee');
    const workspace = await newWorkspace(own);
    await join(own, workspace.id, other, 'owner');
    const invitation = await invite(other, workspace.id, invitee.email, 'editor');

    const demoted = await own.client.put(`/api/workspaces/${workspace.id}/members/${other.id}`, {
      role: 'editor',
    });
    expect(demoted.statusCode, demoted.body).toBe(200);
    expect(await eventsOf(workspace.id, 'InvitationRevoked')).toEqual([
      { data: { invitationId: invitation.id, reason: 'inviter-demoted', at: expect.any(String) } },
    ]);
    await expectGone(invitee, workspace.id, invitation.acceptUrl);
    expect(await listOf(own, workspace.id)).toEqual([]);
  });
});

describe("a workspace's flows and executions", () => {
  /** A workspace with its owner, an editor, a reviewer, an auditor, and someone who is not a member. */
  async function team() {
    const [own, ed, rey, aud, out] = [
      await person('Own'),
      await person('Ed'),
      await person('Rey'),
      await person('Aud'),
      await person('Out'),
    ];
    const workspace = await newWorkspace(own, 'Flows team');
    await join(own, workspace.id, ed, 'editor');
    await join(own, workspace.id, rey, 'reviewer');
    await join(own, workspace.id, aud, 'auditor');
    return { workspace: workspace.id, own, ed, rey, aud, out };
  }

  const flowIn = async (who: Person, workspaceId: string | null, name = 'Shared') => {
    const response = await who.client.post('/api/flows', { name, description: 'A flow', workspaceId });
    expect(response.statusCode, response.body).toBe(201);
    const flow = response.json();
    const step = await who.client.post('/api/steps', {
      flowId: flow.id,
      name: 'Ideas',
      order: 1,
      systemPrompt: 'List ideas.',
    });
    expect(step.statusCode, step.body).toBe(201);
    return { id: flow.id as string, step: step.json().id as string, workspaceId: flow.workspaceId };
  };

  it('makes a flow in a workspace for an owner or editor, 403 for other roles, 404 for a non-member', async () => {
    const { workspace, own, ed, rey, aud, out } = await team();
    expect((await flowIn(ed, workspace)).workspaceId).toBe(workspace);
    for (const who of [rey, aud]) {
      const refused = await who.client.post('/api/flows', {
        name: 'No',
        description: 'No',
        workspaceId: workspace,
      });
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'forbidden' });
    }
    const hidden = await out.client.post('/api/flows', {
      name: 'No',
      description: 'No',
      workspaceId: workspace,
    });
    expect(hidden.statusCode).toBe(404);
    expect((await out.client.get(`/api/flows?workspaceId=${workspace}`)).statusCode).toBe(404);
    // Every member lists the workspace's flows; the maker's own list is theirs alone.
    for (const who of [own, ed, rey, aud]) {
      const listed = (await who.client.get(`/api/flows?workspaceId=${workspace}`)).json();
      expect(listed.map((flow: { name: string }) => flow.name)).toEqual(['Shared']);
    }
    expect((await ed.client.get('/api/flows')).json()).toEqual([]);
  });

  it('moves a flow in as a version of it, and back out by its owner only; its runs stay in the workspace', async () => {
    const { workspace, own, ed, aud } = await team();
    const flow = await flowIn(own, null, 'Mine first');
    const before = await own.client.post(`/api/flows/${flow.id}/execute`);
    const moved = await own.client.post(`/api/flows/${flow.id}/move`, { workspaceId: workspace });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().workspaceId).toBe(workspace);
    const versions = (await own.client.get(`/api/flows/${flow.id}/versions`)).json();
    expect(versions.map((version: { summary: string }) => version.summary)).toContain(
      'Chuyển vào một workspace',
    );
    expect((await ed.client.get(`/api/flows/${flow.id}`)).statusCode).toBe(200);
    // Runs started before the move stay their starter's own; a run started now is the workspace's.
    expect((await aud.client.get(`/api/executions/${before.json().id}`)).statusCode).toBe(404);
    const during = (await ed.client.post(`/api/flows/${flow.id}/execute`)).json();
    expect(during.workspaceId).toBe(workspace);

    const byEditor = await ed.client.post(`/api/flows/${flow.id}/move`, { workspaceId: null });
    expect(byEditor.statusCode, byEditor.body).toBe(403);
    expect((await aud.client.post(`/api/flows/${flow.id}/move`, { workspaceId: null })).statusCode).toBe(403);
    const back = await own.client.post(`/api/flows/${flow.id}/move`, { workspaceId: null });
    expect(back.statusCode, back.body).toBe(200);
    expect((await ed.client.get(`/api/flows/${flow.id}`)).statusCode).toBe(404);
    // What happened in the workspace stays readable by its auditor.
    expect((await aud.client.get(`/api/executions/${during.id}`)).statusCode).toBe(200);
    expect((await aud.client.get(`/api/executions/${during.id}/events`)).statusCode).toBe(200);
    const listed = (await aud.client.get(`/api/workspaces/${workspace}/executions`)).json();
    expect(listed.items.map((e: { id: string }) => e.id)).toEqual([during.id]);
  });

  it('refuses a move into a workspace where the mover may not edit flows', async () => {
    const { workspace, own, rey, out } = await team();
    const reys = await flowIn(rey, null, 'Rey own');
    expect((await rey.client.post(`/api/flows/${reys.id}/move`, { workspaceId: workspace })).statusCode).toBe(
      403,
    );
    const outs = await flowIn(out, null, 'Out own');
    expect((await out.client.post(`/api/flows/${outs.id}/move`, { workspaceId: workspace })).statusCode).toBe(
      404,
    );
    // Another user's flow stays missing, whatever the target.
    expect((await own.client.post(`/api/flows/${outs.id}/move`, { workspaceId: workspace })).statusCode).toBe(
      404,
    );
  });

  it("lets a reviewer approve a workspace run's result but not run it; an auditor only reads", async () => {
    const { workspace, ed, rey, aud } = await team();
    const flow = await flowIn(ed, workspace);
    const execution = (await ed.client.post(`/api/flows/${flow.id}/execute`)).json();
    const run = await ed.client.post(`/api/executions/${execution.id}/steps/${flow.step}/execute`, {
      userInput: '',
    });
    expect(run.statusCode, run.body).toBe(200);
    const result = run.json().results[0].id;
    expect((await rey.client.put(`/api/step-results/${result}`, { approved: true })).statusCode).toBe(200);
    const rerun = await rey.client.post(`/api/executions/${execution.id}/steps/${flow.step}/execute`, {
      userInput: '',
    });
    expect(rerun.statusCode, rerun.body).toBe(403);
    expect(rerun.json().detail).toContain('reviewer');
    expect((await aud.client.put(`/api/step-results/${result}`, { approved: false })).statusCode).toBe(403);
    const events = (await aud.client.get(`/api/executions/${execution.id}/events?limit=100`)).json();
    const approved = events.items.find((e: { type: string }) => e.type === 'ResultApproved');
    expect(approved.actor).toMatchObject({ userId: rey.id });
  });

  it("lists a workspace's executions page by page, filtered by flow, person, status and start time", async () => {
    const { workspace, own, ed, aud } = await team();
    const one = await flowIn(ed, workspace, 'One');
    const two = await flowIn(own, workspace, 'Two');
    const started = [
      (await ed.client.post(`/api/flows/${one.id}/execute`)).json(),
      (await own.client.post(`/api/flows/${two.id}/execute`)).json(),
      (await ed.client.post(`/api/flows/${two.id}/execute`)).json(),
    ];
    await ed.client.post(`/api/executions/${started[0].id}/stop`);
    const list = async (query: string) => {
      const response = await aud.client.get(`/api/workspaces/${workspace}/executions${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as {
        items: { id: string; flowName: string; userName: string; status: string }[];
        nextCursor: string | null;
      };
    };
    const all = await list('');
    expect(all.items.map((e) => e.id)).toEqual(started.map((e) => e.id).reverse());
    expect(all.items[0]).toMatchObject({ flowName: 'Two', userName: 'Ed', status: 'waiting' });
    expect((await list(`?flowId=${one.id}`)).items.map((e) => e.id)).toEqual([started[0].id]);
    expect((await list(`?userId=${own.id}`)).items.map((e) => e.id)).toEqual([started[1].id]);
    expect((await list('?status=stopped')).items.map((e) => e.id)).toEqual([started[0].id]);
    const at = encodeURIComponent(new Date(Date.now() + 60_000).toISOString());
    expect((await list(`?from=${at}`)).items).toEqual([]);
    expect((await list(`?to=${at}`)).items).toHaveLength(3);
    const first = await list('?limit=2');
    expect(first.items).toHaveLength(2);
    const rest = await list(`?limit=2&cursor=${first.nextCursor}`);
    expect(rest).toEqual({ items: [expect.objectContaining({ id: started[0].id })], nextCursor: null });
    expect((await aud.client.get(`/api/workspaces/${workspace}/executions?status=lost`)).statusCode).toBe(
      400,
    );
  });
});
