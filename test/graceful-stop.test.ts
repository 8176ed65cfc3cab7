import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { SERVER_STOPPED } from '../src/api/model-calls/model-call';
import { RESTARTING } from '../src/api/runtime/graceful-stop';
import { RESTART_CLOSE_CODE } from '../src/domain/live-updates';
import { createTestDatabase, type TestDatabase } from './support/database';
import { type FakeGemini, startFakeGemini } from './support/fake-gemini';
import { startServerProcess } from './support/server-process';

/** An answer in six pieces over about two seconds: under way when SIGTERM comes, done long before the grace. */
const SHORT_ANSWER = {
  text: 'one two three four five six seven eight nine ten eleven twelve thirteen ',
  chunkDelayMs: 350,
};
/** An answer that would take a minute: still under way when the grace ends. */
const LONG_ANSWER = { text: 'word '.repeat(120), chunkDelayMs: 1_500 };

describe('SIGTERM: a graceful stop', () => {
  let db: TestDatabase;
  let fake: FakeGemini;
  let answer: typeof SHORT_ANSWER = SHORT_ANSWER;

  beforeAll(async () => {
    db = await createTestDatabase();
    fake = await startFakeGemini({ respond: () => answer });
  });
  afterAll(async () => {
    await fake?.close();
    await db?.drop();
  });

  /** A server with a signed-in user whose execution has one step, its run started and under way. */
  async function runUnderWay(graceMs: number) {
    const server = await startServerProcess(db.url, {
      GEMINI_API_KEY: 'fake-gemini-key',
      GOOGLE_GEMINI_BASE_URL: fake.url,
      SHUTDOWN_GRACE_MS: String(graceMs),
    });
    const exited = new Promise<number | null>((resolve) => server.child.once('exit', resolve));
    const registered = await fetch(`${server.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: `stop-${Date.now()}-${Math.random()}@example.com`,
        password: 'correct horse battery',
        firstName: 'Mai',
        lastName: 'Tran',
      }),
    });
    const cookie = (registered.headers.get('set-cookie') ?? '').split(';')[0]!;
    const call = async (method: string, route: string, body?: unknown) => {
      const response = await fetch(`${server.url}${route}`, {
        method,
        headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: await response.json() };
    };
    const flow = (await call('POST', '/api/flows', { name: 'Stop', description: 'A graceful stop' })).body;
    const step = (
      await call('POST', '/api/steps', { flowId: flow.id, order: 1, name: 'Draft', systemPrompt: 'Draft it' })
    ).body;
    const execution = (await call('POST', `/api/flows/${flow.id}/execute`, {})).body;
    const socket = new WebSocket(`${server.url.replace('http', 'ws')}/api/ws`, { headers: { cookie } });
    const closed = new Promise<number>((resolve) => socket.once('close', resolve));
    await new Promise((resolve) => socket.once('open', resolve));
    const run = call('POST', `/api/executions/${execution.id}/steps/${step.id}/execute`, {});
    await expect
      .poll(async () => (await call('GET', `/api/executions/${execution.id}`)).body.runs.length, {
        timeout: 20_000,
      })
      .toBe(1);
    /** What a websocket opened now gets: its HTTP status when refused, 101 when it opens. */
    const reconnect = () =>
      new Promise<number>((resolve, reject) => {
        const again = new WebSocket(`${server.url.replace('http', 'ws')}/api/ws`, { headers: { cookie } });
        again.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
        again.once('open', () => {
          again.close();
          resolve(101);
        });
        again.once('error', reject);
      });
    return { server, exited, closed, run, execution, call, reconnect };
  }

  it('answers new requests 503, closes sockets to reconnect, lets the run finish, and exits 0', async () => {
    answer = SHORT_ANSWER;
    const { server, exited, closed, run, call, reconnect } = await runUnderWay(20_000);
    server.child.kill('SIGTERM');

    await expect.poll(() => closed, { timeout: 10_000 }).toBe(RESTART_CLOSE_CODE);
    const refused = await call('GET', '/api/flows');
    expect(refused).toMatchObject({ status: 503, body: { message: RESTARTING } });
    // The page reconnecting at once is refused too (a balancer sends it on), and its connection is closed:
    // one left open would keep the process from ever exiting.
    expect(await reconnect()).toBe(503);
    const finished = await run;
    expect(finished.status).toBe(200);
    expect(finished.body.results[0].result).toBe(SHORT_ANSWER.text);
    expect(await exited).toBe(0);
  }, 60_000);

  it('past the grace, a run still under way is recorded as interrupted', async () => {
    answer = LONG_ANSWER;
    const { server, exited, run, execution } = await runUnderWay(1_500);
    server.child.kill('SIGTERM');

    const cutOff = await run;
    expect(cutOff).toMatchObject({ status: 502, body: { message: SERVER_STOPPED, retryable: true } });
    expect(await exited).toBe(0);
    // As a crash's run is: failed as interrupted, so the step may run again at once.
    const [row] = await db.sql<{ runs: { status: string; message: string }[] }[]>`
      SELECT runs FROM executions WHERE id = ${execution.id}`;
    expect(row!.runs).toEqual([expect.objectContaining({ status: 'failed', message: 'interrupted' })]);
  }, 60_000);
});
