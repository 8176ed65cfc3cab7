import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import type { ModelProvider } from '../src/ai';
import { buildApp } from '../src/api/app';
import { connect } from '../src/api/database/connection';
import { EventStore } from '../src/eventstore';
import { abortableGatedModel } from './support/abortable-gated-model';
import { TEST_APP_SECRET } from './support/database';
import { anotherInstance, as, createTestApp, signUp, type TestApp, testConfig } from './support/test-app';
import { ok, type Person, person } from './support/workspace-people';

const fast: ModelProvider = {
  kind: 'offline',
  model: 'fast',
  stream(request) {
    const text = `answer to ${request.prompt.slice(0, 40)}`;
    return Object.assign(
      (async function* () {
        yield text;
      })(),
      { final: Promise.resolve({ text, usage: null }) },
    );
  },
};

const ITEMS = 12;

describe("an experiment's runs across stops, restarts and instances", () => {
  let t: TestApp;
  const gated = abortableGatedModel();
  let ann: Person;

  beforeAll(async () => {
    t = await createTestApp(
      { freeStepAllowance: 100_000, shutdownGraceMs: 1_000 },
      { resolveModel: () => ({ provider: gated.provider, keySource: 'offline' }) },
    );
    ann = await person(t.app, 'Ann');
  });
  afterAll(async () => {
    gated.open();
    await t.close();
  });

  /** A two-step flow and a dataset of ITEMS topics; the request that starts an experiment of it. */
  const experimentRequest = async (ann: Person, concurrency: number) => {
    const flow = ok(await ann.client.post('/api/flows', { name: 'Tea', description: 'Tea' }), 201);
    const steps: string[] = [];
    for (const [order, prompt] of ['Ideas about the topic.', 'A post from [[step-1]].'].entries())
      steps.push(
        ok(
          await ann.client.post('/api/steps', {
            flowId: flow.id,
            name: `Step ${order + 1}`,
            order: order + 1,
            systemPrompt: prompt,
            ...(order === 0 ? { requiresUserInput: true } : {}),
          }),
          201,
        ).id as string,
      );
    const dataset = ok(await ann.client.post('/api/datasets', { name: 'Topics', flowId: flow.id }), 201);
    ok(
      await ann.client.post(`/api/datasets/${dataset.id}/items`, {
        items: Array.from({ length: ITEMS }, (_, i) => ({ inputs: { [steps[0]!]: `topic ${i}` } })),
      }),
      201,
    );
    const version = Number(
      String((await ann.client.get(`/api/flows/${flow.id}`)).headers.etag).replace(/\D/g, ''),
    );
    return {
      flowId: flow.id,
      flowVersion: version,
      datasetId: dataset.id,
      review: Object.fromEntries(steps.map((id) => [id, 'auto'])),
      concurrency,
    };
  };

  const read = async (id: string) => ok(await ann.client.get(`/api/experiments/${id}`));
  const until = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 60_000, interval: 50 });
  /** Each run's ExperimentRunStarted events: run key -> instances, in order. */
  const startsOf = async (sql: TestApp['db']['sql'], experimentId: string) => {
    const rows = await sql<{ data: { runKey: string; instanceId: number } }[]>`
      SELECT data FROM events WHERE stream_id = ${`experiment-${experimentId}`}
        AND event_type = 'ExperimentRunStarted' ORDER BY stream_position`;
    return rows.map((row) => row.data);
  };

  it('stops: no run starts any more, the runs in flight end stopped, and no model call follows', async () => {
    const started = ok(await ann.client.post('/api/experiments', await experimentRequest(ann, 3)), 202);
    await until(async () => expect(gated.waiting()).toBe(3));
    const callsBefore = gated.calls();
    const stopped = ok(await ann.client.post(`/api/experiments/${started.id}/stop`, {}));
    expect(['stopping', 'stopped']).toContain(stopped.status);
    await until(async () => expect((await read(started.id)).status).toBe('stopped'));
    const after = await read(started.id);
    expect(after.counts).toMatchObject({ total: ITEMS, stopped: 3, planned: ITEMS - 3, running: 0 });
    for (const run of after.runs.filter((r: { executionId: string | null }) => r.executionId)) {
      const execution = ok(await ann.client.get(`/api/executions/${run.executionId}`));
      expect(execution.status).toBe('stopped');
    }
    expect(gated.calls()).toBe(callsBefore);
    expect(gated.waiting()).toBe(0);
    // A stopped experiment starts nothing more, whoever drives it.
    await t.app.experimentRunner.drive(started.id);
    expect((await read(started.id)).counts.planned).toBe(ITEMS - 3);
    expect((await ann.client.post(`/api/experiments/${started.id}/stop`, {})).statusCode).toBe(200);
  });

  it('pushes its progress live to who may read its flow, and to nobody else', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { cookie } = await signUp(t.app, 'Lan');
    const lan = as(t.app, cookie);
    const stranger = await signUp(t.app, 'Minh');
    const started = ok(
      await lan.post('/api/experiments', await experimentRequest({ client: lan, id: '', email: '' }, 2)),
      202,
    );
    const open = async (who: string) => {
      const socket = new WebSocket(`${base.replace('http', 'ws')}/api/ws`, {
        headers: { cookie: who, origin: base },
      });
      const messages: Array<{ type: string; position?: number; message?: string; event?: { type: string } }> =
        [];
      socket.on('message', (raw) => messages.push(JSON.parse(String(raw))));
      await new Promise<void>((resolve, reject) => {
        socket.once('open', () => resolve());
        socket.once('error', reject);
      });
      socket.send(JSON.stringify({ type: 'subscribe', experimentId: started.id, after: 0 }));
      return { socket, messages };
    };
    const watcher = await open(cookie);
    const outsider = await open(stranger.cookie);
    try {
      await until(async () => expect(watcher.messages.some((m) => m.type === 'up-to-date')).toBe(true));
      expect(watcher.messages[0]).toMatchObject({
        type: 'event',
        position: 1,
        event: { type: 'ExperimentStarted' },
      });
      ok(await lan.post(`/api/experiments/${started.id}/stop`, {}));
      await until(async () =>
        expect(watcher.messages.some((m) => m.event?.type === 'ExperimentStopped')).toBe(true),
      );
      await until(async () => expect(outsider.messages.some((m) => m.type === 'error')).toBe(true));
      expect(outsider.messages).toEqual([
        { type: 'error', experimentId: started.id, message: 'Không tìm thấy experiment' },
      ]);
    } finally {
      watcher.socket.close();
      outsider.socket.close();
    }
  });

  it('goes on after its instance stops: another instance on the same database finishes every run once', async () => {
    const stuck = abortableGatedModel();
    const first = await createTestApp(
      { freeStepAllowance: 100_000, shutdownGraceMs: 1_000 },
      { resolveModel: () => ({ provider: stuck.provider, keySource: 'offline' }) },
    );
    let second: Awaited<ReturnType<typeof anotherInstance>> | undefined;
    try {
      const owner = await person(first.app, 'Ann');
      const started = ok(await owner.client.post('/api/experiments', await experimentRequest(owner, 4)), 202);
      const read = async (id: string) => ok(await owner.client.get(`/api/experiments/${id}`));
      // Its runs wait on the model until the instance stops.
      await until(async () => expect(stuck.waiting()).toBe(4));
      expect((await read(started.id)).counts.running).toBe(4);
      // As the server process stops on SIGTERM: calls still under way after the grace time are cut off.
      await first.app.stopGracefully(200);
      // Each run in flight is recorded as interrupted before the process is gone (read from the record: another
      // instance may resume them the moment it starts, on a drive job still queued).
      const interruptions = await first.db.sql<{ runKey: string }[]>`
        SELECT data->>'runKey' AS "runKey" FROM events
        WHERE stream_id = ${`experiment-${started.id}`} AND event_type = 'ExperimentRunInterrupted'`;
      expect(new Set(interruptions.map((row) => row.runKey)).size).toBe(4);

      // Another instance, whose model answers, resumes the interrupted runs on their executions.
      second = await anotherInstance(
        first.db.url,
        { freeStepAllowance: 100_000 },
        {
          resolveModel: () => ({ provider: fast, keySource: 'offline' }),
        },
      );
      const again = as(second.app, await loginCookie(second.app, owner));
      await second.app.experimentRunner.drive(started.id);
      await until(async () =>
        expect(ok(await again.get(`/api/experiments/${started.id}`)).status).toBe('completed'),
      );
      const done = ok(await again.get(`/api/experiments/${started.id}`));
      expect(done.counts).toMatchObject({ completed: ITEMS, failed: 0 });
      const starts = await startsOf(first.db.sql, started.id);
      const resumed = starts.filter((s) => starts.filter((o) => o.runKey === s.runKey).length > 1);
      expect(new Set(resumed.map((s) => s.runKey)).size).toBe(4);
      // One execution per run, the resumed ones included.
      const executions = await first.db.sql<{ count: number }[]>`
        SELECT count(*)::int AS count FROM executions WHERE experiment_id = ${started.id}`;
      expect(executions[0]!.count).toBe(ITEMS);
    } finally {
      stuck.open();
      await second?.close();
      await first.db.drop();
    }
  });

  it('resumes the runs of an instance that died, once it is found gone, on their executions', {
    timeout: 90_000,
  }, async () => {
    const stuck = abortableGatedModel();
    const survivor = await createTestApp(
      { freeStepAllowance: 100_000 },
      { resolveModel: () => ({ provider: fast, keySource: 'offline' }) },
    );
    // The instance that dies: its connections cut (its lock with them) while its model calls hang.
    const config = testConfig({ databaseUrl: survivor.db.url, freeStepAllowance: 100_000 });
    const doomedSql = connect(survivor.db.url, { max: config.databasePoolSize, appSecret: TEST_APP_SECRET });
    const doomed = await buildApp({
      config,
      sql: doomedSql,
      store: new EventStore(doomedSql),
      resolveModel: () => ({ provider: stuck.provider, keySource: 'offline' }),
    });
    try {
      const owner = await person(survivor.app, 'Ann');
      const request = await experimentRequest(owner, 2);
      // Started through the instance that dies; each instance takes its share, the doomed one's hangs.
      const started = ok(
        await doomed.inject({
          method: 'POST',
          url: '/api/experiments',
          headers: { cookie: await loginCookie(doomed, owner) },
          payload: request,
        }),
        202,
      );
      await doomed.experimentRunner.drive(started.id);
      await until(async () => expect(stuck.waiting()).toBe(1));
      await doomedSql.end({ timeout: 0 });

      // The survivor's sweep finds the instance gone (no second look here), interrupts and resumes its runs.
      await until(async () => {
        await survivor.app.experimentRunner.sweep(async () => {});
        expect(ok(await owner.client.get(`/api/experiments/${started.id}`)).status).toBe('completed');
      });
      const done = ok(await owner.client.get(`/api/experiments/${started.id}`));
      expect(done.counts).toMatchObject({ completed: ITEMS, failed: 0 });
      const executions = await survivor.db.sql<{ count: number }[]>`
        SELECT count(*)::int AS count FROM executions WHERE experiment_id = ${started.id}`;
      expect(executions[0]!.count).toBe(ITEMS);
    } finally {
      await doomed.stopGracefully(100).catch(() => {});
      await survivor.close();
    }
  });

  it('is shared by two instances driving it at once: each run starts once', async () => {
    const a = await createTestApp(
      { freeStepAllowance: 100_000 },
      { resolveModel: () => ({ provider: fast, keySource: 'offline' }) },
    );
    const b = await anotherInstance(
      a.db.url,
      { freeStepAllowance: 100_000 },
      {
        resolveModel: () => ({ provider: fast, keySource: 'offline' }),
      },
    );
    try {
      const owner = await person(a.app, 'Ann');
      const started = ok(await owner.client.post('/api/experiments', await experimentRequest(owner, 4)), 202);
      await Promise.all([a.app.experimentRunner.drive(started.id), b.app.experimentRunner.drive(started.id)]);
      await until(async () =>
        expect(ok(await owner.client.get(`/api/experiments/${started.id}`)).status).toBe('completed'),
      );
      const starts = await startsOf(a.db.sql, started.id);
      expect(starts).toHaveLength(ITEMS);
      expect(new Set(starts.map((s) => s.runKey)).size).toBe(ITEMS);
      expect(new Set(starts.map((s) => s.instanceId)).size).toBe(2);
    } finally {
      await b.close();
      await a.close();
    }
  });
});

/** A session of `who` on another instance (sessions are in the database: one sign-in serves every instance). */
async function loginCookie(app: import('fastify').FastifyInstance, who: Person) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: who.email, password: 'correct horse battery' },
  });
  expect(response.statusCode, response.body).toBe(200);
  return [response.headers['set-cookie']]
    .flat()
    .map((c) => String(c).split(';')[0])
    .join('; ');
}
