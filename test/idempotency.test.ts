import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_REUSED_MESSAGE } from '../src/api/http/errors';
import { STILL_BEING_ANSWERED } from '../src/api/idempotency/keyed-writes';
import { createTestDatabase } from './support/database';
import { gatedModel } from './support/gated-model';
import { startServerProcess } from './support/server-process';
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

const model = gatedModel();
model.open();
let one: TestApp;
let second: AnotherInstance;
let other: FastifyInstance;
let alice: { cookie: string; user: { id: string } };
let bob: { cookie: string; user: { id: string } };

beforeAll(async () => {
  one = await createTestApp({}, { resolveModel: () => ({ provider: model.provider, keySource: 'default' }) });
  second = await anotherInstance(
    one.db.url,
    {},
    { resolveModel: () => ({ provider: model.provider, keySource: 'default' }) },
  );
  other = second.app;
  alice = await signUp(one.app, 'Alice');
  bob = await signUp(one.app, 'Bob');
});
afterAll(async () => {
  await second.close();
  await one.close();
});

/** The same user's client on both instances, alternating. */
function onBoth(cookie: string): Client[] {
  return [as(one.app, cookie), as(other, cookie)];
}

const key = (name: string) => ({ 'idempotency-key': `${name}-${Math.random()}` });

async function executionCount(flowId: string) {
  const [{ count }] = await one.db.sql<[{ count: number }]>`
    SELECT count(*)::int AS count FROM executions WHERE flow_id = ${flowId}`;
  return count;
}

describe('Idempotency-Key', () => {
  it('gives 20 concurrent starts with one key, over two instances, one execution and every caller its answer', async () => {
    const clients = onBoth(alice.cookie);
    const { flow } = await createFlow(clients[0]!, 'Races', [{ name: 'A', systemPrompt: 'a' }]);
    const headers = key('start');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        clients[i % 2]!.post(`/api/flows/${flow.id}/execute`, undefined, headers),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 201));
    expect(new Set(answers.map((a) => a.json().id)).size).toBe(1);
    expect(await executionCount(flow.id)).toBe(1);
  });

  it('gives concurrent reruns from a step with one key one new execution', async () => {
    const clients = onBoth(alice.cookie);
    const { flow, steps } = await createFlow(clients[0]!, 'Rerun races', [
      { name: 'A', systemPrompt: 'a' },
      { name: 'B', systemPrompt: 'b' },
    ]);
    const source = (await clients[0]!.post(`/api/flows/${flow.id}/execute`)).json();
    const ran = await clients[0]!.post(`/api/executions/${source.id}/steps/${steps[0].id}/execute`);
    const [result] = ran.json().results;
    await clients[0]!.put(`/api/step-results/${result.id}`, { approved: true });
    const headers = key('rerun');
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        clients[i % 2]!.post(`/api/executions/${source.id}/rerun-from/${steps[1]!.id}`, {}, headers),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 201));
    expect(new Set(answers.map((a) => a.json().id)).size).toBe(1);
    expect(await executionCount(flow.id)).toBe(2);
  });

  it("is scoped to the user: another user's key is a new command of mine, never a 404", async () => {
    const mine = as(one.app, alice.cookie);
    const theirs = as(one.app, bob.cookie);
    const { flow: aliceFlow } = await createFlow(mine, 'Alice flow', [{ name: 'A', systemPrompt: 'a' }]);
    const { flow: bobFlow } = await createFlow(theirs, 'Bob flow', [{ name: 'B', systemPrompt: 'b' }]);
    const headers = key('shared');
    const started = await mine.post(`/api/flows/${aliceFlow.id}/execute`, undefined, headers);
    const startedToo = await theirs.post(`/api/flows/${bobFlow.id}/execute`, undefined, headers);
    expect(started.statusCode).toBe(201);
    expect(startedToo.statusCode).toBe(201);
    expect(startedToo.json().id).not.toBe(started.json().id);
    expect(startedToo.json().flowId).toBe(bobFlow.id);
  });

  it('refuses a key used before for another request with 422 and changes nothing', async () => {
    const client = as(one.app, alice.cookie);
    const { flow } = await createFlow(client, 'Reused key', [{ name: 'A', systemPrompt: 'a' }]);
    const headers = key('reused');
    const execution = (await client.post(`/api/flows/${flow.id}/execute`, undefined, headers)).json();
    const stop = await client.post(`/api/executions/${execution.id}/stop`, undefined, headers);
    expect(stop.statusCode).toBe(422);
    expect(stop.json()).toMatchObject({
      code: 'idempotency_key_reused',
      message: KEY_REUSED_MESSAGE,
    });
    expect((await client.get(`/api/executions/${execution.id}`)).json().status).toBe('running');
  });

  it('answers a step run repeated while the model answers with 409 retryable, and after it with its results', async () => {
    const clients = onBoth(alice.cookie);
    const { flow, steps } = await createFlow(clients[0]!, 'Slow', [{ name: 'A', systemPrompt: 'a' }]);
    const execution = (await clients[0]!.post(`/api/flows/${flow.id}/execute`)).json();
    const url = `/api/executions/${execution.id}/steps/${steps[0].id}/execute`;
    const headers = key('run');
    model.close();
    const calls = model.calls();
    const first = clients[0]!.post(url, {}, headers);
    await expect.poll(() => model.calls()).toBe(calls + 1);
    const meanwhile = await clients[1]!.post(url, {}, headers);
    expect(meanwhile.statusCode).toBe(409);
    expect(meanwhile.json()).toMatchObject({
      message: STILL_BEING_ANSWERED,
      retryable: true,
    });
    model.open();
    const answered = await first;
    expect(answered.statusCode).toBe(200);
    const again = await clients[1]!.post(url, {}, headers);
    expect(again.statusCode).toBe(200);
    expect(again.json().results).toEqual(answered.json().results);
    expect(model.calls()).toBe(calls + 1);
  });
});

describe('a model answer under concurrent writers', () => {
  it('records every answered run as succeeded while other commands race for the execution', async () => {
    const clients = onBoth(alice.cookie);
    const names = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'];
    const { flow, steps } = await createFlow(
      clients[0]!,
      'Busy',
      names.map((name) => ({ name, systemPrompt: name })),
    );
    const execution = (await clients[0]!.post(`/api/flows/${flow.id}/execute`)).json();
    const [first] = (
      await clients[0]!.post(`/api/executions/${execution.id}/steps/${steps[0].id}/execute`)
    ).json().results;
    // Every step but the first runs, on both instances, while approvals of the first result flip.
    let writing = true;
    const writer = async (client: Client) => {
      let approved = false;
      while (writing) {
        approved = !approved;
        await client.put(`/api/step-results/${first.id}`, { approved });
      }
    };
    const writers = [writer(clients[0]!), writer(clients[1]!)];
    /** As a client would: a command that gave up on conflicts says so and is sent again. */
    const run = async (client: Client, stepId: string) => {
      for (;;) {
        const answer = await client.post(`/api/executions/${execution.id}/steps/${stepId}/execute`);
        if (answer.statusCode !== 409 || !answer.json().retryable) return answer;
      }
    };
    const runs = await Promise.all(steps.slice(1).map((step, i) => run(clients[i % 2]!, step.id)));
    writing = false;
    await Promise.all(writers);
    expect(runs.map((r) => r.statusCode)).toEqual(runs.map(() => 200));
    const events = await one.store.readStream(`execution-${execution.id}`);
    const started = events.events.filter((e) => e.type === 'StepRunStarted');
    const succeeded = events.events.filter((e) => e.type === 'StepRunSucceeded');
    expect(events.events.filter((e) => e.type === 'StepRunFailed')).toEqual([]);
    expect(succeeded.length).toBe(started.length);
  });
});

describe('Idempotency-Key across two server processes', () => {
  it('gives 20 concurrent starts and reruns with one key one effect, every caller its answer', async () => {
    const db = await createTestDatabase();
    const servers = await Promise.all([startServerProcess(db.url), startServerProcess(db.url)]);
    try {
      const [a, b] = servers.map((s) => s.url);
      const registered = await fetch(`${a}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email: 'twice@example.com',
          password: 'correct horse battery',
          firstName: 'T',
          lastName: 'Tran',
        }),
      });
      const cookie = (registered.headers.get('set-cookie') ?? '').split(';')[0]!;
      const call = async (
        base: string,
        path: string,
        body?: unknown,
        headers: Record<string, string> = {},
      ) => {
        const response = await fetch(`${base}${path}`, {
          method: body === undefined ? 'GET' : 'POST',
          headers: { cookie, 'content-type': 'application/json', ...headers },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        return { status: response.status, body: await response.json() };
      };
      const flow = (await call(a!, '/api/flows', { name: 'Two processes', description: 'x' })).body;
      const steps: { id: string }[] = [];
      for (const [i, name] of ['A', 'B'].entries()) {
        steps.push(
          (await call(a!, '/api/steps', { flowId: flow.id, order: i + 1, name, systemPrompt: name })).body,
        );
      }
      const startKey = { 'idempotency-key': 'start-once' };
      const starts = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          call(i % 2 ? b! : a!, `/api/flows/${flow.id}/execute`, {}, startKey),
        ),
      );
      expect(starts.map((s) => s.status)).toEqual(starts.map(() => 201));
      const ids = new Set(starts.map((s) => s.body.id));
      expect(ids.size).toBe(1);
      const [execution] = [...ids];
      const ran = await call(a!, `/api/executions/${execution}/steps/${steps[0]!.id}/execute`, {});
      await fetch(`${a}/api/step-results/${ran.body.results[0].id}`, {
        method: 'PUT',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ approved: true }),
      });
      const rerunKey = { 'idempotency-key': 'rerun-once' };
      const reruns = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          call(i % 2 ? b! : a!, `/api/executions/${execution}/rerun-from/${steps[1]!.id}`, {}, rerunKey),
        ),
      );
      expect(reruns.map((r) => r.status)).toEqual(reruns.map(() => 201));
      expect(new Set(reruns.map((r) => r.body.id)).size).toBe(1);
      const [{ count }] = await db.sql<[{ count: number }]>`
        SELECT count(*)::int AS count FROM executions WHERE flow_id = ${flow.id}`;
      expect(count).toBe(2);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
      await db.drop();
    }
  });
});
