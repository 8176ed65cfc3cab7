import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { SIGNED_OUT_CLOSE_CODE } from '../src/domain/live-updates';
import {
  type AnotherInstance,
  anotherInstance,
  as,
  createFlow,
  createTestApp,
  signUp,
  type TestApp,
} from './support/test-app';

interface Pushed {
  type: string;
  event?: { type: string };
}

const PASSWORD = 'correct horse battery';

/** A second sign-in of the same account: another session, as from another device. */
async function signIn(app: FastifyInstance, email: string): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password: PASSWORD },
  });
  expect(response.statusCode).toBe(200);
  const setCookie = response.headers['set-cookie'];
  return String(Array.isArray(setCookie) ? setCookie[0] : setCookie).split(';')[0]!;
}

const sidOf = (cookie: string) => decodeURIComponent(cookie.slice('workbench.sid='.length)).split('.')[0]!;

async function openSocket(base: string, cookie: string) {
  const socket = new WebSocket(`${base.replace('http', 'ws')}/api/ws`, { headers: { cookie } });
  const messages: Pushed[] = [];
  socket.on('message', (raw) => messages.push(JSON.parse(String(raw))));
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return { socket, messages, closed };
}

type Socket = Awaited<ReturnType<typeof openSocket>>;

async function subscribe(client: Socket, executionId: string) {
  client.socket.send(JSON.stringify({ type: 'subscribe', executionId, after: 0 }));
  await expect.poll(() => client.messages.some((m) => m.type === 'up-to-date')).toBe(true);
}

describe('a socket lives as long as its sign-in session', () => {
  let t: TestApp;
  /** A second server process on the same database, with connections (and so a LISTEN) of its own. */
  let other: AnotherInstance;
  let second: FastifyInstance;
  let baseOne: string;
  let baseTwo: string;
  const open: Socket[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    other = await anotherInstance(t.db.url);
    second = other.app;
    baseOne = await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseTwo = await second.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    for (const client of open) client.socket.close();
    await other?.close();
    await t?.close();
  });

  /** One account signed in twice (sessions `first` and `second`), an execution of its flow, and a step to run. */
  async function twoSessionsWatching(baseOfFirst: string, baseOfSecond: string) {
    const { cookie: first, email } = await signUp(t.app, 'Lan');
    const other = await signIn(t.app, email);
    const { flow, steps } = await createFlow(as(t.app, other), 'Live', [
      { name: 'One', systemPrompt: 'Say hi' },
    ]);
    const execution = (await as(t.app, other).post(`/api/flows/${flow.id}/execute`)).json();
    const watching = await openSocket(baseOfFirst, first);
    const staying = await openSocket(baseOfSecond, other);
    open.push(watching, staying);
    await subscribe(watching, execution.id);
    await subscribe(staying, execution.id);
    /** A change made with the session that stays signed in. */
    const runStep = async () => {
      const response = await as(t.app, other).post(
        `/api/executions/${execution.id}/steps/${steps[0].id}/execute`,
        { userInput: '' },
      );
      expect(response.statusCode).toBe(200);
      await expect.poll(() => staying.messages.some((m) => m.event?.type === 'StepRunSucceeded')).toBe(true);
    };
    return { first, watching, staying, runStep };
  }

  it('sign-out closes that session’s sockets with 4401 and pushes nothing more; other sessions keep theirs', async () => {
    const { first, watching, staying, runStep } = await twoSessionsWatching(baseOne, baseOne);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/logout', headers: { cookie: first } })).statusCode,
    ).toBe(302);
    expect(await watching.closed).toBe(SIGNED_OUT_CLOSE_CODE);
    await runStep();
    expect(watching.messages.map((m) => m.event?.type ?? m.type)).toEqual(['ExecutionStarted', 'up-to-date']);
    expect(staying.socket.readyState).toBe(WebSocket.OPEN);
  });

  it('a sign-out handled by another server process closes the sockets this one holds for that session', async () => {
    const { first, watching, staying, runStep } = await twoSessionsWatching(baseTwo, baseTwo);
    // Signed out through the first process; the sockets are on the second.
    await t.app.inject({ method: 'GET', url: '/api/logout', headers: { cookie: first } });
    expect(await watching.closed).toBe(SIGNED_OUT_CLOSE_CODE);
    await runStep();
    expect(watching.messages.map((m) => m.event?.type ?? m.type)).toEqual(['ExecutionStarted', 'up-to-date']);
    expect(staying.socket.readyState).toBe(WebSocket.OPEN);
  });

  it('an expired session’s sockets are closed by the session check', async () => {
    const { first, watching, staying } = await twoSessionsWatching(baseOne, baseOne);
    await t.db.sql`UPDATE sessions SET expire = now() - interval '1 second' WHERE sid = ${sidOf(first)}`;
    await t.app.hub.checkSessions();
    expect(await watching.closed).toBe(SIGNED_OUT_CLOSE_CODE);
    expect(staying.socket.readyState).toBe(WebSocket.OPEN);
  });

  it('nothing is pushed past a session’s expiry, even before a check notices it', async () => {
    const { first, watching, staying, runStep } = await twoSessionsWatching(baseOne, baseOne);
    await t.db
      .sql`UPDATE sessions SET expire = now() + interval '300 milliseconds' WHERE sid = ${sidOf(first)}`;
    // The hub learns the new expiry; the next check is a minute away.
    await t.app.hub.checkSessions();
    // The expiry passes, by the database's clock (which set it).
    while (
      (await t.db.sql`SELECT 1 FROM sessions WHERE sid = ${sidOf(first)} AND expire > now()`).length > 0
    );
    await runStep();
    expect(await watching.closed).toBe(SIGNED_OUT_CLOSE_CODE);
    expect(watching.messages.map((m) => m.event?.type ?? m.type)).toEqual(['ExecutionStarted', 'up-to-date']);
    expect(staying.socket.readyState).toBe(WebSocket.OPEN);
  });
});
