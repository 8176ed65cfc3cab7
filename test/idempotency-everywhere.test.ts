import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { REPLAYED_HEADER } from '../src/api/idempotency/plugin';
import { requestFingerprint } from '../src/api/idempotency/request-fingerprint';
import {
  type AnotherInstance,
  anotherInstance,
  createTestApp,
  signUp,
  type TestApp,
} from './support/test-app';

let one: TestApp;
let second: AnotherInstance;
let alice: { cookie: string; user: { id: string } };
let bob: { cookie: string; user: { id: string } };

beforeAll(async () => {
  one = await createTestApp();
  second = await anotherInstance(one.db.url);
  alice = await signUp(one.app, 'Alice');
  bob = await signUp(one.app, 'Bob');
});
afterAll(async () => {
  await second.close();
  await one.close();
});

type Method = 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A user's call to an instance, with an Idempotency-Key when given one. */
function call(
  app: FastifyInstance,
  cookie: string,
  method: Method,
  url: string,
  payload?: object,
  key?: string,
) {
  return app.inject({
    method,
    url,
    headers: { cookie, ...(key ? { 'idempotency-key': key } : {}) },
    ...(payload === undefined ? {} : { payload }),
  });
}

const aliceCalls = (app: FastifyInstance) => (method: Method, url: string, payload?: object, key?: string) =>
  call(app, alice.cookie, method, url, payload, key);

let keys = 0;
const newKey = () => `key-${++keys}-${Math.random()}`;

async function count(table: 'master_mode_steps' | 'user_sessions' | 'user_api_keys' | 'flows') {
  const [row] = await one.db.sql<[{ count: number }]>`
    SELECT count(*)::int AS count FROM ${one.db.sql(table)} WHERE ${
      table === 'master_mode_steps'
        ? one.db.sql`session_id IN (SELECT id FROM master_mode_sessions WHERE user_id = ${alice.user.id})`
        : one.db.sql`user_id = ${alice.user.id}`
    }`;
  return row.count;
}

async function masterSession() {
  const created = await aliceCalls(one.app)('POST', '/api/master-mode/standalone', { name: 'Sheet' });
  expect(created.statusCode).toBe(201);
  return created.json() as { id: string };
}

describe('Idempotency-Key on writes that are not event-sourced', () => {
  it('answers a repeated new master mode row with its first answer, and adds one row', async () => {
    const alices = aliceCalls(one.app);
    const session = await masterSession();
    const before = await count('master_mode_steps');
    const key = newKey();
    const row = { sessionId: session.id, stepName: 'Ask', systemPrompt: 'Say hi' };
    const first = await alices('POST', '/api/master-mode/steps', row, key);
    const again = await aliceCalls(second.app)('POST', '/api/master-mode/steps', row, key);
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(again.headers[REPLAYED_HEADER]).toBe('true');
    expect(first.headers[REPLAYED_HEADER]).toBeUndefined();
    expect(await count('master_mode_steps')).toBe(before + 1);
  });

  it('answers a repeated saved session and a repeated own API key with their first answers, one row each', async () => {
    const alices = aliceCalls(one.app);
    for (const [url, body, table] of [
      ['/api/user-sessions', { sessionName: 'Morning', flowId: '', executionId: '' }, 'user_sessions'],
      ['/api/user/api-keys', { keyName: 'Mine', apiKey: 'AIza-secret' }, 'user_api_keys'],
    ] as const) {
      const before = await count(table);
      const key = newKey();
      const first = await alices('POST', url, body, key);
      const again = await alices('POST', url, body, key);
      expect(first.statusCode, url).toBe(201);
      expect(again.statusCode, url).toBe(201);
      expect(again.json()).toEqual(first.json());
      expect(await count(table)).toBe(before + 1);
    }
  });

  it('refuses the same key with another body, method or path with 422 and does nothing', async () => {
    const alices = aliceCalls(one.app);
    const session = await masterSession();
    const key = newKey();
    const row = { sessionId: session.id, stepName: 'Ask' };
    expect((await alices('POST', '/api/master-mode/steps', row, key)).statusCode).toBe(201);
    const before = await count('master_mode_steps');
    const refusals = [
      await alices('POST', '/api/master-mode/steps', { ...row, stepName: 'Tell' }, key),
      await alices('POST', '/api/user-sessions', { sessionName: 'Evening' }, key),
      await alices('DELETE', `/api/master-mode/session/${session.id}`, undefined, key),
    ];
    for (const refused of refusals) {
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toMatchObject({
        status: 422,
        code: 'idempotency_key_reused',
        message: expect.stringContaining('Idempotency-Key này đã được dùng cho một request khác'),
      });
    }
    expect(await count('master_mode_steps')).toBe(before);
    expect((await alices('POST', '/api/master-mode/steps', row, key)).statusCode).toBe(201);
  });

  it('answers a repeated keyed DELETE with its first 204, not 404', async () => {
    const alices = aliceCalls(one.app);
    const saved = (await alices('POST', '/api/user-sessions', { sessionName: 'Gone soon' })).json();
    const key = newKey();
    const first = await alices('DELETE', `/api/user-sessions/${saved.id}`, undefined, key);
    const again = await aliceCalls(second.app)('DELETE', `/api/user-sessions/${saved.id}`, undefined, key);
    expect(first.statusCode).toBe(204);
    expect(again.statusCode).toBe(204);
    expect(again.body).toBe('');
    // Without the key it is a new request: there is nothing left to delete.
    expect((await alices('DELETE', `/api/user-sessions/${saved.id}`)).statusCode).toBe(404);
  });

  it('gives concurrent duplicates on two instances one effect and every caller the first answer', async () => {
    const session = await masterSession();
    const before = await count('master_mode_steps');
    const key = newKey();
    const row = { sessionId: session.id, stepName: 'Once' };
    // A duplicate waits a few seconds for the first answer, then is told to come back (409 retryable): a
    // caller sends it again then, as a client does, and gets the first answer.
    const send = async (i: number) => {
      for (;;) {
        const answer = await aliceCalls(i % 2 ? second.app : one.app)(
          'POST',
          '/api/master-mode/steps',
          row,
          key,
        );
        if (answer.statusCode !== 409 || answer.json().retryable !== true) return answer;
      }
    };
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => send(i)));
    expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 201));
    expect(new Set(answers.map((a) => a.json().id)).size).toBe(1);
    expect(await count('master_mode_steps')).toBe(before + 1);
  });

  it('keeps keys per user: the same key from another user is a request of their own', async () => {
    const key = newKey();
    const mine = await aliceCalls(one.app)('POST', '/api/user-sessions', { sessionName: 'Mine' }, key);
    const theirs = await call(
      one.app,
      bob.cookie,
      'POST',
      '/api/user-sessions',
      { sessionName: 'Mine' },
      key,
    );
    expect(mine.statusCode).toBe(201);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.json().id).not.toBe(mine.json().id);
  });

  it('lets a malformed request hold no key: the corrected one with the same key runs', async () => {
    const alices = aliceCalls(one.app);
    const key = newKey();
    const malformed = await alices('POST', '/api/user-sessions', { sessionName: 'x', color: 'red' }, key);
    expect(malformed.statusCode).toBe(400);
    expect((await alices('POST', '/api/user-sessions', { sessionName: 'x' }, key)).statusCode).toBe(201);
  });

  it('refuses a key longer than 200 characters with 400', async () => {
    const answer = await aliceCalls(one.app)(
      'POST',
      '/api/user-sessions',
      { sessionName: 'x' },
      'k'.repeat(201),
    );
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({ code: 'invalid_input' });
  });
});

describe('Idempotency-Key on event-sourced commands', () => {
  it('answers a repeated new flow with the first, and refuses the key with another body with 422', async () => {
    const alices = aliceCalls(one.app);
    const key = newKey();
    const first = await alices('POST', '/api/flows', { name: 'Tea', description: 'Tea flow' }, key);
    const again = await aliceCalls(second.app)(
      'POST',
      '/api/flows',
      { description: 'Tea flow', name: 'Tea' },
      key,
    );
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    const flows = await count('flows');
    const other = await alices('POST', '/api/flows', { name: 'Coffee', description: 'Coffee flow' }, key);
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ code: 'idempotency_key_reused' });
    expect(await count('flows')).toBe(flows);
  });

  it('answers the first outcome from the event store when the process that ran it died before recording it', async () => {
    const alices = aliceCalls(one.app);
    const key = newKey();
    const body = { name: 'Survivor', description: 'Ran once' };
    const first = await alices('POST', '/api/flows', body, key);
    // As a process that appended the command's events and died before recording its answer leaves it: a
    // claim with no answer, as old as an abandoned one.
    await one.db.sql`
      UPDATE idempotent_requests SET status = NULL, body = NULL, content_type = NULL,
        claimed_at = now() - interval '1 hour'
      WHERE user_id = ${alice.user.id} AND key = ${key}`;
    const flows = await count('flows');
    const retried = await aliceCalls(second.app)('POST', '/api/flows', body, key);
    expect(retried.statusCode).toBe(201);
    expect(retried.json().id).toBe(first.json().id);
    expect(await count('flows')).toBe(flows);
  });
});

describe('a replayed answer', () => {
  // A user of their own: Alice's own API key (above) would answer her runs, from a provider not reached here.
  let carol: { cookie: string };
  beforeAll(async () => {
    carol = await signUp(one.app, 'Carol');
  });
  const carols = (app: FastifyInstance) => (method: Method, url: string, payload?: object) =>
    call(app, carol.cookie, method, url, payload);

  /** A keyed call of Carol's with headers of its own. */
  const keyed = (
    app: FastifyInstance,
    method: Method,
    url: string,
    key: string,
    payload?: object,
    headers = {},
  ) =>
    app.inject({
      method,
      url,
      headers: { cookie: carol.cookie, 'idempotency-key': key, ...headers },
      ...(payload === undefined ? {} : { payload }),
    });

  it('gives again the headers of the first that say what it did: ETag, Location, Preference-Applied', async () => {
    // A write's new version (ETag): a keyed PUT of a flow, sent again to another instance.
    const flow = (await carols(one.app)('POST', '/api/flows', { name: 'Tags', description: 'd' })).json();
    const key = newKey();
    const body = { name: 'Tags 2', description: 'd', status: 'active' };
    const first = await keyed(one.app, 'PUT', `/api/flows/${flow.id}`, key, body);
    const again = await keyed(second.app, 'PUT', `/api/flows/${flow.id}`, key, body);
    expect(first.statusCode).toBe(200);
    expect(first.headers.etag).toMatch(/^"\d+"$/);
    expect(again.headers[REPLAYED_HEADER]).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(again.headers.etag).toBe(first.headers.etag);

    // What a write made (Location): Execute All's record.
    const session = (
      await carols(one.app)('POST', '/api/master-mode/standalone', { name: 'Sheet' })
    ).json() as { id: string };
    await carols(one.app)('POST', '/api/master-mode/steps', {
      sessionId: session.id,
      stepName: 'Words',
      stepType: 'text',
      userInput: 'hello',
    });
    const runKey = newKey();
    const started = await keyed(one.app, 'POST', `/api/master-mode/execute-all/${session.id}`, runKey);
    expect(started.statusCode).toBe(202);
    expect(started.headers.location).toMatch(/\/execute-all\//);
    const startedAgain = await keyed(
      second.app,
      'POST',
      `/api/master-mode/execute-all/${session.id}`,
      runKey,
    );
    expect(startedAgain.statusCode).toBe(202);
    expect(startedAgain.headers[REPLAYED_HEADER]).toBe('true');
    expect(startedAgain.headers.location).toBe(started.headers.location);

    // The shape the body was given in (Preference-Applied): a step run answered minimal.
    const step = (
      await carols(one.app)('POST', '/api/steps', {
        flowId: flow.id,
        name: 'One',
        order: 1,
        systemPrompt: 'Say one',
      })
    ).json();
    const execution = (await carols(one.app)('POST', `/api/flows/${flow.id}/execute`)).json();
    const stepKey = newKey();
    const prefer = { prefer: 'return=minimal' };
    const url = `/api/executions/${execution.id}/steps/${step.id}/execute`;
    const ran = await keyed(one.app, 'POST', url, stepKey, { userInput: '' }, prefer);
    expect(ran.statusCode).toBe(200);
    expect(ran.headers['preference-applied']).toBe('return=minimal');
    const ranAgain = await keyed(second.app, 'POST', url, stepKey, { userInput: '' }, prefer);
    expect(ranAgain.headers[REPLAYED_HEADER]).toBe('true');
    expect(ranAgain.json()).toEqual(ran.json());
    expect(ranAgain.headers['preference-applied']).toBe('return=minimal');
  });
});

describe('a request sent again while the first is under way', () => {
  it('waits for the first answer and answers it', async () => {
    const key = newKey();
    const body = { sessionName: 'Awaited' };
    // A claim held by a request still running on the other instance.
    await one.db.sql`
      INSERT INTO idempotent_requests (user_id, key, fingerprint, claim, instance_id)
      VALUES (${alice.user.id}, ${key}, ${requestFingerprint('POST', '/api/user-sessions', body)},
              gen_random_uuid(), ${one.app.serverInstance.id})`;
    const before = await count('user_sessions');
    const claims = vi.spyOn(second.app.idempotentRequests, 'claim');
    let answeredYet = false;
    const waiting = aliceCalls(second.app)('POST', '/api/user-sessions', body, key).finally(() => {
      answeredYet = true;
    });
    // It found the claim under way, and goes on waiting.
    await expect
      .poll(() =>
        claims.mock.settledResults.some((r) => r.type === 'fulfilled' && r.value.kind === 'under_way'),
      )
      .toBe(true);
    expect(answeredYet).toBe(false);
    await one.db.sql`
      UPDATE idempotent_requests
      SET status = 201, content_type = 'application/json; charset=utf-8', body = '{"first":true}'
      WHERE user_id = ${alice.user.id} AND key = ${key}`;
    const answered = await waiting;
    claims.mockRestore();
    expect(answered.statusCode).toBe(201);
    expect(answered.json()).toEqual({ first: true });
    expect(await count('user_sessions')).toBe(before);
  });

  it('takes over the claim of a process that died, and runs the request', async () => {
    const key = newKey();
    const body = { sessionName: 'Orphaned' };
    // A claim held by an instance whose process is gone: no one holds its lock.
    await one.db.sql`
      INSERT INTO idempotent_requests (user_id, key, fingerprint, claim, instance_id)
      VALUES (${alice.user.id}, ${key}, ${requestFingerprint('POST', '/api/user-sessions', body)},
              gen_random_uuid(), 2000000000)`;
    const before = await count('user_sessions');
    const retried = await aliceCalls(second.app)('POST', '/api/user-sessions', body, key);
    expect(retried.statusCode).toBe(201);
    expect(await count('user_sessions')).toBe(before + 1);
    const again = await aliceCalls(one.app)('POST', '/api/user-sessions', body, key);
    expect(again.json()).toEqual(retried.json());
  }, 30_000);
});

describe('how long a key is kept', () => {
  it('lets a key a day old name a new request, and sweeps the rows past a day', async () => {
    const alices = aliceCalls(one.app);
    const key = newKey();
    const first = await alices('POST', '/api/user-sessions', { sessionName: 'Yesterday' }, key);
    const fresh = newKey();
    await alices('POST', '/api/user-sessions', { sessionName: 'Today' }, fresh);
    await one.db.sql`
      UPDATE idempotent_requests SET claimed_at = now() - interval '25 hours'
      WHERE user_id = ${alice.user.id} AND key = ${key}`;
    const reused = await alices('POST', '/api/user-sessions', { sessionName: 'Another day' }, key);
    expect(reused.statusCode).toBe(201);
    expect(reused.json().id).not.toBe(first.json().id);
    await one.db.sql`
      UPDATE idempotent_requests SET claimed_at = now() - interval '25 hours'
      WHERE user_id = ${alice.user.id} AND key = ${key}`;
    expect(await one.app.idempotentRequests.sweep()).toBeGreaterThanOrEqual(1);
    const left = await one.db.sql<{ key: string }[]>`
      SELECT key FROM idempotent_requests WHERE user_id = ${alice.user.id} AND key IN (${key}, ${fresh})`;
    expect(left.map((row) => row.key)).toEqual([fresh]);
  });
});
