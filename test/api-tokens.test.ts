import type { AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { OPERATION_SCOPES, PERSONAL_OPERATIONS, scopeNeeded } from '../src/api/access';
import { OPERATIONS } from '../src/api/http/operations';
import { API_TOKEN_MAX_DAYS, MAX_API_TOKENS_PER_USER } from '../src/domain/api-token';
import { SIGNED_OUT_CLOSE_CODE } from '../src/domain/live-updates';
import { ACCESS } from './support/access-table';
import { registered } from './support/route-recorder';
import {
  type AnotherInstance,
  anotherInstance,
  createFlow,
  createTestApp,
  type TestApp,
} from './support/test-app';
import { join, newWorkspace, ok, type Person, person } from './support/workspace-people';

// Every app this file makes records its routes: each must have a scope.
vi.mock('fastify', async (original) =>
  (await import('./support/route-recorder')).recordingFastify(await original()),
);

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** What a token's caller sends: the Authorization header alone, no cookie. */
function bearer(app: TestApp['app'] | AnotherInstance['app'], token: string) {
  return (method: Method, url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}`, ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
}

const expectScopeRefusal = (response: LightMyRequestResponse, scope: string) => {
  expect(response.statusCode, response.body).toBe(403);
  expect(response.json()).toMatchObject({ code: 'insufficient_scope' });
  expect(response.headers['www-authenticate']).toBe(`Bearer error="insufficient_scope", scope="${scope}"`);
};

const expectUnauthorized = (response: LightMyRequestResponse) => {
  expect(response.statusCode, response.body).toBe(401);
  expect(response.headers['www-authenticate']).toMatch(/^Bearer realm="workbench"/);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
};

describe('API tokens', () => {
  let t: TestApp;
  let b: AnotherInstance;
  let owner: Person;
  let editor: Person;
  let stranger: Person;
  let workspaceId: string;
  let flowId: string;
  let stepIds: string[];
  let token: string;
  let tokenId: string;

  const makeToken = async (who: Person, body: Record<string, unknown>) =>
    ok(await who.client.post('/api/user/tokens', body), 201) as {
      id: string;
      token: string;
      expiresAt: string;
      createdAt: string;
    };

  beforeAll(async () => {
    t = await createTestApp({ freeStepAllowance: 1_000 });
    b = await anotherInstance(t.db.url, { freeStepAllowance: 1_000 });
    owner = await person(t.app, 'Owner');
    editor = await person(t.app, 'Editor');
    stranger = await person(t.app, 'Stranger');
    workspaceId = (await newWorkspace(owner)).id;
    await join(owner, workspaceId, editor, 'editor');
    const made = ok(
      await editor.client.post('/api/flows', { name: 'Shared', description: 'In the team', workspaceId }),
      201,
    );
    flowId = made.id;
    stepIds = [];
    for (const [i, prompt] of ['List three ideas about tea.', 'Pick one of [[step-1]].'].entries()) {
      const step = ok(
        await editor.client.post('/api/steps', {
          flowId,
          name: `S${i + 1}`,
          order: i + 1,
          systemPrompt: prompt,
        }),
        201,
      );
      stepIds.push(step.id);
    }
    const created = await makeToken(editor, { name: 'CI runner', scopes: ['run', 'read'], workspaceId });
    token = created.token;
    tokenId = created.id;
  }, 60_000);

  afterAll(async () => {
    await b?.close();
    await t?.close();
  });

  it('has a scope for every operation of the API and every /api route, and agrees with the access table', () => {
    const missing = Object.keys(OPERATIONS).filter((key) => !(key in OPERATION_SCOPES));
    expect(missing, `add a scope for ${missing.join(', ')}`).toEqual([]);
    const routes = registered
      .flatMap(({ method, url }) => [method].flat().map((m) => ({ method: m, url })))
      .filter(({ url, method }) => url.startsWith('/api') && method !== 'HEAD');
    const unscoped = routes.filter(({ method, url }) => scopeNeeded(method, url) === undefined);
    expect(unscoped, 'a route no token may call').toEqual([]);
    // What a member's role must allow (the access table) and the scope a token needs say the same, but for
    // the caller's own records made from a workspace's (a saved session, a master mode session of a flow),
    // whose scope is what they make, and whose role is what the flow they come from needs.
    const scopeOfAction = {
      read: 'read',
      watch: 'read',
      change: 'write',
      run: 'run',
      review: 'review',
      manage: 'admin',
    };
    for (const [key, entry] of Object.entries(ACCESS)) {
      const route = key.replace(/\{(\w+)\}/g, ':$1');
      if (!entry.needs || PERSONAL_OPERATIONS.has(route)) continue;
      expect(`${route} ${OPERATION_SCOPES[route]}`).toBe(`${route} ${scopeOfAction[entry.needs]}`);
    }
    for (const key of PERSONAL_OPERATIONS) expect(OPERATION_SCOPES, key).toHaveProperty([key]);
  });

  it('is shown once, starts with wb_pat_, and is listed without itself, with its scopes and workspace', async () => {
    expect(token).toMatch(/^wb_pat_[A-Za-z0-9_-]{43}$/);
    const listed = ok(await editor.client.get('/api/user/tokens'));
    expect(listed).toEqual([
      expect.objectContaining({ id: tokenId, name: 'CI runner', scopes: ['read', 'run'], workspaceId }),
    ]);
    expect(JSON.stringify(listed)).not.toContain(token);
    const [stored] = await t.db.sql<
      { tokenHash: string }[]
    >`SELECT token_hash FROM api_tokens WHERE id = ${tokenId}`;
    expect(stored!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored!.tokenHash).not.toContain(token.slice(7));
  });

  it("starts an execution and runs a step with the token alone, is refused a write, and after the maker's demotion a run", async () => {
    const call = bearer(t.app, token);
    const execution = ok(await call('POST', `/api/flows/${flowId}/execute`), 201);
    const ran = await call('POST', `/api/executions/${execution.id}/steps/${stepIds[0]}/execute`, {
      userInput: '',
    });
    expect(ran.statusCode, ran.body).toBe(200);
    ok(await call('GET', `/api/executions/${execution.id}`));

    expectScopeRefusal(await call('PUT', `/api/flows/${flowId}`, { description: 'Changed' }), 'write');
    expectScopeRefusal(await call('POST', `/api/workspaces/${workspaceId}/invitations`, {}), 'admin');

    ok(await owner.client.put(`/api/workspaces/${workspaceId}/members/${editor.id}`, { role: 'auditor' }));
    const refused = await call('POST', `/api/flows/${flowId}/execute`);
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().code).toBe('forbidden');
    // Still an auditor's reads.
    ok(await call('GET', `/api/flows/${flowId}`));
    ok(await owner.client.put(`/api/workspaces/${workspaceId}/members/${editor.id}`, { role: 'editor' }));
    ok(await call('POST', `/api/flows/${flowId}/execute`), 201);
  });

  it("acts only in its workspace: the maker's own records and other workspaces are missing", async () => {
    const call = bearer(t.app, token);
    const own = (await createFlow(editor.client, 'Mine', [])).flow;
    const otherTeam = await newWorkspace(editor, 'Other team');
    const elsewhere = ok(
      await editor.client.post('/api/flows', {
        name: 'Elsewhere',
        description: 'x',
        workspaceId: otherTeam.id,
      }),
      201,
    );
    expect((await call('GET', `/api/flows/${own.id}`)).statusCode).toBe(404);
    expect((await call('GET', `/api/flows/${elsewhere.id}`)).statusCode).toBe(404);
    expect((await call('POST', `/api/flows/${own.id}/execute`)).statusCode).toBe(404);
    expect((await call('GET', '/api/user/api-keys')).statusCode).toBe(404);
    expect((await call('GET', '/api/master-mode/sessions')).statusCode).toBe(404);
    const idsOf = (listed: { id: string }[] | { items: { id: string }[] }) =>
      (Array.isArray(listed) ? listed : listed.items).map((record) => record.id);
    // The maker's own flows: none, to this token.
    expect(idsOf(ok(await call('GET', '/api/flows')))).toEqual([]);
    expect(idsOf(ok(await call('GET', `/api/flows?workspaceId=${workspaceId}`)))).toEqual([flowId]);
    expect((await call('GET', `/api/flows?workspaceId=${otherTeam.id}`)).statusCode).toBe(404);
    // Made with a workspace token, a flow is the workspace's, never the maker's own.
    const writer = bearer(
      t.app,
      (await makeToken(editor, { name: 'W', scopes: ['write'], workspaceId })).token,
    );
    const made = await writer('POST', '/api/flows', { name: 'Own', description: 'Not with this token' });
    expect(made.statusCode, made.body).toBe(404);
    const body = { name: 'Team', description: 'In the workspace', workspaceId };
    ok(await writer('POST', '/api/flows', body), 201);
    expect((await writer('POST', `/api/flows/${flowId}/move`, { workspaceId: null })).statusCode).toBe(404);
    expect(idsOf(ok(await call('GET', '/api/workspaces')))).toEqual([workspaceId]);
    // The cookie session still sees them all.
    ok(await editor.client.get(`/api/flows/${own.id}`));
  });

  it('a personal token acts wherever its maker may, within its scopes', async () => {
    const personal = await makeToken(editor, { name: 'Everything I may read', scopes: ['read'] });
    const call = bearer(t.app, personal.token);
    ok(await call('GET', `/api/flows/${flowId}`));
    ok(await call('GET', '/api/user/api-keys'));
    expectScopeRefusal(await call('POST', `/api/flows/${flowId}/execute`), 'run');
    // Nothing of another user's.
    const theirs = (await createFlow(stranger.client, 'Theirs', [])).flow;
    expect((await call('GET', `/api/flows/${theirs.id}`)).statusCode).toBe(404);
  });

  it('records when and from where a token was last used, at most once a minute', async () => {
    const fresh = await makeToken(editor, { name: 'Fresh', scopes: ['read'] });
    const before = ok(await editor.client.get('/api/user/tokens')).find(
      (x: { id: string }) => x.id === fresh.id,
    );
    expect(before).toMatchObject({ lastUsedAt: null, lastUsedFrom: null });
    await t.app.inject({
      method: 'GET',
      url: '/api/flows',
      headers: { authorization: `Bearer ${fresh.token}` },
      remoteAddress: '10.9.8.7',
    });
    await t.app.inject({
      method: 'GET',
      url: '/api/flows',
      headers: { authorization: `Bearer ${fresh.token}` },
      remoteAddress: '10.9.8.6',
    });
    const after = ok(await editor.client.get('/api/user/tokens')).find(
      (x: { id: string }) => x.id === fresh.id,
    );
    expect(after.lastUsedFrom).toBe('10.9.8.7');
    expect(Date.parse(after.lastUsedAt)).toBeGreaterThanOrEqual(Date.parse(after.createdAt));
  });

  it("is never answered from an Idempotency-Key the maker's session (or another token) used", async () => {
    const own = (await createFlow(editor.client, 'Keyed', [])).flow;
    const headers = { 'idempotency-key': `k-${Date.now()}` };
    ok(await editor.client.post(`/api/flows/${own.id}/execute`, undefined, headers), 201);
    // The same request with the workspace token: not the session's stored answer (the maker's own flow).
    const replayed = await bearer(t.app, token)('POST', `/api/flows/${own.id}/execute`, undefined, headers);
    expect(replayed.statusCode, replayed.body).toBe(422);
    expect(replayed.headers['idempotent-replayed']).toBeUndefined();
  });

  it('is not held back by the origin check meant for cookies', async () => {
    const call = bearer(t.app, token);
    ok(
      await call('POST', `/api/flows/${flowId}/execute`, undefined, { origin: 'https://elsewhere.example' }),
      201,
    );
  });

  it('cannot make, list or revoke tokens itself', async () => {
    const call = bearer(t.app, token);
    expect((await call('GET', '/api/user/tokens')).statusCode).toBe(403);
    expect((await call('POST', '/api/user/tokens', { name: 'More', scopes: ['admin'] })).statusCode).toBe(
      403,
    );
    expect((await call('DELETE', `/api/user/tokens/${tokenId}`)).statusCode).toBe(403);
  });

  it('refuses malformed Authorization headers with a 401 that says why, never a 500', async () => {
    for (const authorization of [
      'Bearer',
      'Bearer ',
      'Basic dXNlcjpwYXNz',
      'bearer wb_pat_short',
      `Bearer ${token} extra`,
      'Bearer not-a-token',
      `Bearer wb_pat_${'A'.repeat(43)}`,
      `Token ${token}`,
      'Bearer wb_pat_\u00e9\u00e9',
    ]) {
      const response = await t.app.inject({ method: 'GET', url: '/api/flows', headers: { authorization } });
      expectUnauthorized(response);
      expect(response.json().code, authorization).toBe('invalid_token');
      expect(response.json().message.length).toBeGreaterThan(10);
    }
    // Signed out, a 401 names the bearer scheme too.
    expectUnauthorized(await t.app.inject({ method: 'GET', url: '/api/flows' }));
  });

  it('checks its bounds: name, scopes, expiry, workspace', async () => {
    const refuse = async (body: Record<string, unknown>, status = 400) =>
      expect((await editor.client.post('/api/user/tokens', body)).statusCode, JSON.stringify(body)).toBe(
        status,
      );
    await refuse({ name: '', scopes: ['read'] });
    await refuse({ name: 'x'.repeat(101), scopes: ['read'] });
    await refuse({ name: 'No scopes', scopes: [] });
    await refuse({ name: 'Odd scope', scopes: ['sudo'] });
    await refuse({ name: 'Too short', scopes: ['read'], expiresInDays: 0 });
    await refuse({ name: 'Too long', scopes: ['read'], expiresInDays: API_TOKEN_MAX_DAYS + 1 });
    await refuse(
      { name: 'Not my team', scopes: ['read'], workspaceId: (await newWorkspace(stranger)).id },
      404,
    );
    const made = await makeToken(editor, { name: 'Default expiry', scopes: ['read'] });
    const days = (Date.parse(made.expiresAt) - Date.parse(made.createdAt)) / 86_400_000;
    expect(Math.round(days)).toBe(90);
  });

  it(`makes at most ${MAX_API_TOKENS_PER_USER} tokens per user, even asked at once`, async () => {
    const many = await person(t.app, 'Many');
    const answers = await Promise.all(
      Array.from({ length: MAX_API_TOKENS_PER_USER + 5 }, (_, i) =>
        many.client.post('/api/user/tokens', { name: `T${i}`, scopes: ['read'] }),
      ),
    );
    expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(MAX_API_TOKENS_PER_USER);
    expect(answers.filter((answer) => answer.statusCode === 400)).toHaveLength(5);
  });

  it('an expired token is a 401', async () => {
    const made = await makeToken(editor, { name: 'Short lived', scopes: ['read'] });
    ok(await bearer(t.app, made.token)('GET', '/api/flows'));
    await t.db.sql`UPDATE api_tokens SET expires_at = now() - interval '1 second' WHERE id = ${made.id}`;
    expectUnauthorized(await bearer(t.app, made.token)('GET', '/api/flows'));
  });

  it("answers 404 to revoking another user's token", async () => {
    expect((await stranger.client.delete(`/api/user/tokens/${tokenId}`)).statusCode).toBe(404);
    ok(await bearer(t.app, token)('GET', '/api/flows'));
  });

  it('works on the live updates socket, which closes when the token is revoked', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const made = await makeToken(editor, { name: 'Watcher', scopes: ['read'], workspaceId });
    const execution = ok(await editor.client.post(`/api/flows/${flowId}/execute`), 201);
    const socket = new WebSocket(`ws://127.0.0.1:${port}/api/ws`, {
      headers: { authorization: `Bearer ${made.token}` },
    });
    const messages: { type: string }[] = [];
    socket.on('message', (raw) => messages.push(JSON.parse(String(raw))));
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    const upToDate = new Promise<void>((resolve) =>
      socket.on('message', (raw) => {
        if (JSON.parse(String(raw)).type === 'up-to-date') resolve();
      }),
    );
    socket.send(JSON.stringify({ type: 'subscribe', executionId: execution.id, after: 0 }));
    await upToDate;
    expect(messages.some((m) => m.type === 'event')).toBe(true);

    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    expect((await editor.client.delete(`/api/user/tokens/${made.id}`)).statusCode).toBe(204);
    expect(await closed).toBe(SIGNED_OUT_CLOSE_CODE);

    // Refused at the upgrade, with a bad token.
    const refused = new WebSocket(`ws://127.0.0.1:${port}/api/ws`, {
      headers: { authorization: `Bearer ${made.token}` },
    });
    const status = await new Promise<number | undefined>((resolve) => {
      refused.once('unexpected-response', (_request, response) => resolve(response.statusCode));
      refused.once('open', () => resolve(undefined));
    });
    expect(status).toBe(401);
  });

  it('revoked on one instance, it is a 401 on the other at once', async () => {
    const made = await makeToken(editor, { name: 'Two instances', scopes: ['read'], workspaceId });
    ok(await bearer(b.app, made.token)('GET', `/api/flows/${flowId}`));
    expect((await editor.client.delete(`/api/user/tokens/${made.id}`)).statusCode).toBe(204);
    expectUnauthorized(await bearer(b.app, made.token)('GET', `/api/flows/${flowId}`));
    expectUnauthorized(await bearer(t.app, made.token)('GET', `/api/flows/${flowId}`));
    expect(ok(await editor.client.get('/api/user/tokens')).map((x: { id: string }) => x.id)).not.toContain(
      made.id,
    );
  });
});
