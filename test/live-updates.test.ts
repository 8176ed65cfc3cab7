import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTestDatabase, type TestDatabase } from './support/database';
import { type ServerProcess, startServerProcess } from './support/server-process';

interface Pushed {
  type: string;
  executionId?: string;
  position?: number;
  event?: { type: string; data: Record<string, unknown> };
  runId?: string;
  text?: string;
}

async function http(base: string, cookie: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

function openSocket(base: string, cookie: string) {
  const socket = new WebSocket(`${base.replace('http', 'ws')}/api/ws`, { headers: { cookie } });
  const messages: Pushed[] = [];
  socket.on('message', (raw) => messages.push(JSON.parse(String(raw))));
  const opened = new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return { socket, messages, opened };
}

describe('live push across two server processes on one database', () => {
  let db: TestDatabase;
  let a: ServerProcess;
  let b: ServerProcess;
  let cookie: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    [a, b] = await Promise.all([startServerProcess(db.url), startServerProcess(db.url)]);
    const response = await fetch(`${b.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'live@example.com',
        password: 'correct horse battery',
        firstName: 'Lan',
        lastName: 'Tran',
      }),
    });
    cookie = (response.headers.get('set-cookie') ?? '').split(';')[0]!;
  }, 90_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await db?.drop();
  });

  it('a client subscribed on one receives, in order and without a gap, the events of commands handled by the other', async () => {
    const flow = await http(b.url, cookie, 'POST', '/api/flows', { name: 'Live', description: 'two steps' });
    const s1 = await http(b.url, cookie, 'POST', '/api/steps', {
      flowId: flow.id,
      name: 'One',
      order: 1,
      systemPrompt: 'Say hi',
    });
    const s2 = await http(b.url, cookie, 'POST', '/api/steps', {
      flowId: flow.id,
      name: 'Two',
      order: 2,
      systemPrompt: 'Expand [[step-1]]',
    });
    const execution = await http(b.url, cookie, 'POST', `/api/flows/${flow.id}/execute`);

    // Process A polls (and so keeps) the execution before B changes it.
    const polledBefore = await http(a.url, cookie, 'GET', `/api/executions/${execution.id}`);
    expect(polledBefore.results).toEqual([]);

    const client = openSocket(a.url, cookie);
    await client.opened;
    client.socket.send(JSON.stringify({ type: 'subscribe', executionId: execution.id, after: 0 }));
    await expect.poll(() => client.messages.some((m) => m.type === 'up-to-date')).toBe(true);

    const { results } = await http(
      b.url,
      cookie,
      'POST',
      `/api/executions/${execution.id}/steps/${s1.id}/execute`,
      {
        userInput: '',
      },
    );
    await http(b.url, cookie, 'PUT', `/api/step-results/${results[0].id}`, { approved: true });
    await http(b.url, cookie, 'PUT', `/api/step-results/${results[0].id}`, { result: 'Edited on B' });
    await http(b.url, cookie, 'POST', `/api/executions/${execution.id}/steps/${s2.id}/execute`, {
      userInput: '',
    });

    const stored = (
      await db.sql<{ streamPosition: number; eventType: string }[]>`
      SELECT stream_position, event_type FROM events WHERE stream_id = ${`execution-${execution.id}`}
      ORDER BY stream_position`
    ).map((e) => ({ position: e.streamPosition, type: e.eventType }));
    expect(stored.map((e) => e.type)).toContain('ExecutionCompleted');

    await expect
      .poll(() => client.messages.filter((m) => m.type === 'event').length, { timeout: 10_000 })
      .toBe(stored.length);
    const pushed = client.messages
      .filter((m) => m.type === 'event')
      .map((m) => ({ position: m.position, type: m.event!.type }));
    expect(pushed).toEqual(stored);
    // Polling agrees with the push: A answers with B's commands, not the view it kept.
    const polled = await http(a.url, cookie, 'GET', `/api/executions/${execution.id}`);
    expect(polled.version).toBe(stored.length);
    expect(polled.status).toBe('completed');
    expect(polled.results.map((r: { result: string }) => r.result)).toContain('Edited on B');
    client.socket.close();
  });

  it("refuses to subscribe to another user's execution", async () => {
    const other = await fetch(`${a.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'other@example.com',
        password: 'correct horse battery',
        firstName: 'O',
        lastName: 'P',
      }),
    });
    const otherCookie = (other.headers.get('set-cookie') ?? '').split(';')[0]!;
    const flow = await http(a.url, cookie, 'POST', '/api/flows', { name: 'Private', description: 'mine' });
    const execution = await http(a.url, cookie, 'POST', `/api/flows/${flow.id}/execute`);
    const intruder = openSocket(b.url, otherCookie);
    await intruder.opened;
    intruder.socket.send(JSON.stringify({ type: 'subscribe', executionId: execution.id, after: 0 }));
    await expect.poll(() => intruder.messages[0]?.type).toBe('error');
    expect(intruder.messages.some((m) => m.type === 'event')).toBe(false);
    intruder.socket.close();
  });

  it("lets a workspace's member watch its runs live, and closes their sockets on every process once they are removed", async () => {
    const register = async (email: string) => {
      const response = await fetch(`${b.url}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'correct horse battery', firstName: 'M', lastName: 'N' }),
      });
      return {
        cookie: (response.headers.get('set-cookie') ?? '').split(';')[0]!,
        user: await response.json(),
      };
    };
    const member = await register('member@example.com');
    const workspace = await http(b.url, cookie, 'POST', '/api/workspaces', { name: 'Live team' });
    const { acceptUrl } = await http(b.url, cookie, 'POST', `/api/workspaces/${workspace.id}/invitations`, {
      email: 'member@example.com',
      role: 'reviewer',
    });
    await http(
      a.url,
      member.cookie,
      'POST',
      `/api/invitations/${new URL(acceptUrl).pathname.split('/').at(-1)}/accept`,
    );
    const flow = await http(b.url, cookie, 'POST', '/api/flows', {
      name: 'Shared',
      description: 'in the workspace',
      workspaceId: workspace.id,
    });
    const execution = await http(b.url, cookie, 'POST', `/api/flows/${flow.id}/execute`);
    const own = await http(a.url, member.cookie, 'POST', '/api/flows', { name: 'Mine', description: 'own' });

    // The member watches the workspace's run on one socket, and only a flow of their own on another.
    const watching = openSocket(a.url, member.cookie);
    const elsewhere = openSocket(a.url, member.cookie);
    await Promise.all([watching.opened, elsewhere.opened]);
    watching.socket.send(JSON.stringify({ type: 'subscribe', executionId: execution.id, after: 0 }));
    elsewhere.socket.send(JSON.stringify({ type: 'subscribe', flowId: own.id }));
    await expect.poll(() => watching.messages.some((m) => m.type === 'up-to-date')).toBe(true);
    await expect.poll(() => elsewhere.messages.some((m) => m.type === 'up-to-date')).toBe(true);
    expect(watching.messages.find((m) => m.type === 'event')?.event?.type).toBe('ExecutionStarted');
    const closed = new Promise<number>((resolve) => watching.socket.once('close', (code) => resolve(code)));

    // Removed on the other process: the log tells this one, which closes the socket that watched the workspace.
    await http(b.url, cookie, 'DELETE', `/api/workspaces/${workspace.id}/members/${member.user.id}`);
    expect(await closed).toBe(4403);
    expect(elsewhere.socket.readyState).toBe(WebSocket.OPEN);

    // Opened again, the run is missing to them.
    const again = openSocket(a.url, member.cookie);
    await again.opened;
    again.socket.send(JSON.stringify({ type: 'subscribe', executionId: execution.id, after: 0 }));
    await expect.poll(() => again.messages[0]?.type).toBe('error');
    expect(again.messages.some((m) => m.type === 'event')).toBe(false);
    again.socket.close();
    elsewhere.socket.close();
  });

  it('refuses the websocket upgrade without a session', async () => {
    const anonymous = new WebSocket(`${a.url.replace('http', 'ws')}/api/ws`);
    const status = await new Promise<number>((resolve) => {
      anonymous.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      anonymous.once('open', () => resolve(101));
    });
    expect(status).toBe(401);
  });
});
