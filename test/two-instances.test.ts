import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ModelProvider } from '../src/ai';
import { ExecutionViews } from '../src/api/executions/execution-views';
import { MESSAGES } from '../src/domain/execution/decide';
import {
  type AnotherInstance,
  anotherInstance,
  as,
  type Client,
  createFlow,
  createTestApp,
  signUp,
  type TestApp,
} from './support/test-app';

/**
 * A model that writes its first words, then waits for the test to let it finish, or for its call to be
 * aborted (what a Stop does), which it records.
 */
function heldModel() {
  let finish: () => void = () => {};
  const aborted: string[] = [];
  const provider: ModelProvider = {
    kind: 'gemini',
    model: 'held',
    stream(request) {
      const done = new Promise<void>((resolve, reject) => {
        finish = resolve;
        request.signal?.addEventListener('abort', () => {
          aborted.push(request.prompt);
          reject(new DOMException('The operation was aborted', 'AbortError'));
        });
      });
      const final = done.then(() => ({ text: 'First words, and the end.', usage: null }));
      // An aborted call's answer is never awaited.
      final.catch(() => {});
      const chunks = async function* () {
        yield 'First words, ';
        await done;
        yield 'and the end.';
      };
      return Object.assign(chunks(), { final });
    },
  };
  return { provider, aborted, finish: () => finish() };
}

interface Pushed {
  type: string;
  position?: number;
  event?: { type: string };
  runId?: string;
  text?: string;
}

const model = heldModel();
let one: TestApp;
let second: AnotherInstance;
let other: FastifyInstance;
let cookie: string;

beforeAll(async () => {
  const resolveModel = () => ({ provider: model.provider, keySource: 'default' as const });
  one = await createTestApp({}, { resolveModel });
  second = await anotherInstance(one.db.url, {}, { resolveModel });
  other = second.app;
  cookie = (await signUp(one.app)).cookie;
});

afterAll(async () => {
  await second.close();
  await one.close();
});

async function startedExecution(client: Client, name: string) {
  const { flow, steps } = await createFlow(client, name, [{ name: 'Write', systemPrompt: `Write ${name}` }]);
  const execution = (await client.post(`/api/flows/${flow.id}/execute`)).json();
  return { execution, step: steps[0] };
}

describe('two server processes on one database', () => {
  it('know of each other: neither takes the shortcuts of a process alone', () => {
    expect(one.app.serverInstance.alone).toBe(false);
    expect(other.serverInstance.alone).toBe(false);
  });

  it('a Stop sent to one aborts the model call the other is making', async () => {
    const { execution, step } = await startedExecution(as(one.app, cookie), 'stop');
    const running = as(one.app, cookie).post(`/api/executions/${execution.id}/steps/${step.id}/execute`);
    await expect
      .poll(async () => (await as(other, cookie).get(`/api/executions/${execution.id}`)).json().runs.length)
      .toBe(1);

    const stop = await as(other, cookie).post(`/api/executions/${execution.id}/stop`);
    expect(stop.statusCode).toBe(200);
    const run = await running;
    expect(run.statusCode).toBe(409);
    expect(run.json().message).toBe(MESSAGES.stopped);
    expect(model.aborted).toEqual([expect.stringContaining('Write stop')]);
    const view = (await as(other, cookie).get(`/api/executions/${execution.id}`)).json();
    expect(view.status).toBe('stopped');
    expect(view.runs[0]).toMatchObject({ status: 'failed', message: 'Stopped' });
  });

  it('a socket on one gets the tokens of a run the other is making, as they come', async () => {
    const { execution, step } = await startedExecution(as(one.app, cookie), 'tokens');
    const base = (await other.listen({ port: 0, host: '127.0.0.1' })).replace('http', 'ws');
    const socket = new WebSocket(`${base}/api/ws`, { headers: { cookie } });
    const messages: Pushed[] = [];
    socket.on('message', (raw) => messages.push(JSON.parse(String(raw))));
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify({ type: 'subscribe', executionId: execution.id, after: execution.version }));
    await expect.poll(() => messages.some((m) => m.type === 'up-to-date')).toBe(true);

    const running = as(one.app, cookie).post(`/api/executions/${execution.id}/steps/${step.id}/execute`);
    // The first words arrive while the model is still answering: they crossed from the other process.
    await expect.poll(() => messages.find((m) => m.type === 'delta')?.text).toBe('First words, ');
    expect(messages.some((m) => m.event?.type === 'StepRunSucceeded')).toBe(false);
    model.finish();
    expect((await running).statusCode).toBe(200);
    await expect.poll(() => messages.some((m) => m.event?.type === 'StepRunSucceeded')).toBe(true);
    const texts = messages.filter((m) => m.type === 'delta').map((m) => m.text);
    expect(texts.join('')).toBe('First words, and the end.');
    // No token before the run's start event; none after its end.
    const order = messages.map((m) => m.event?.type ?? m.type);
    expect(order.indexOf('delta')).toBeGreaterThan(order.indexOf('StepRunStarted'));
    expect(order.lastIndexOf('delta')).toBeLessThan(order.indexOf('StepRunSucceeded'));
    socket.close();
  });

  it('a view kept in memory is never answered older than a change committed by the other', async () => {
    const { execution } = await startedExecution(as(one.app, cookie), 'views');
    const userId = (await as(one.app, cookie).get('/api/auth/user')).json().id;
    // Views of a process that hears of no other process's commits at all: only its check can keep it right.
    const deaf = (alone: boolean) => new ExecutionViews(other.sql, { alone });
    const shared = deaf(false);
    const single = deaf(true);
    const before = JSON.parse(await shared.viewJson(execution.id, userId)).version;
    expect(JSON.parse(await single.viewJson(execution.id, userId)).version).toBe(before);

    expect((await as(one.app, cookie).post(`/api/executions/${execution.id}/stop`)).statusCode).toBe(200);
    const after = JSON.parse(await shared.viewJson(execution.id, userId));
    expect(after.version).toBeGreaterThan(before);
    expect(after.status).toBe('stopped');
    // Alone on a database, every change is the process's own and drops its view: the kept one is answered.
    expect(JSON.parse(await single.viewJson(execution.id, userId)).version).toBe(before);
  });
});
