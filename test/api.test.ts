import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOfflineProvider } from '../src/ai';
import { shownStatus } from '../src/domain/execution/queries';
import { as, type Client, createFlow, createTestApp, signUp, type TestApp } from './support/test-app';

async function createFlowWithTwoSteps(client: Client) {
  const { flow, steps } = await createFlow(client, 'Blog', [
    { name: 'Ideas', systemPrompt: 'List three ideas about tea.' },
    { name: 'Draft', systemPrompt: 'Write a short post from these ideas: [[step-1]]' },
  ]);
  return { flow, first: steps[0], second: steps[1] };
}

describe('HTTP API', () => {
  let t: TestApp;
  let alice: Client;
  let bob: Client;

  beforeAll(async () => {
    t = await createTestApp();
    alice = as(t.app, (await signUp(t.app, 'Alice')).cookie);
    bob = as(t.app, (await signUp(t.app, 'Bob')).cookie);
  });
  afterAll(() => t.close());

  it('answers 401 on every /api route without a session', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const routes: Array<['GET' | 'POST' | 'PUT' | 'DELETE', string]> = [
      ['GET', '/api/auth/user'],
      ['GET', '/api/flows'],
      ['POST', '/api/flows'],
      ['GET', `/api/flows/${id}`],
      ['PUT', `/api/flows/${id}`],
      ['DELETE', `/api/flows/${id}`],
      ['GET', `/api/flows/${id}/steps`],
      ['POST', '/api/steps'],
      ['PUT', `/api/steps/${id}`],
      ['DELETE', `/api/steps/${id}`],
      ['POST', `/api/flows/${id}/execute`],
      ['GET', `/api/flows/${id}/executions/latest`],
      ['GET', `/api/executions/${id}`],
      ['POST', `/api/executions/${id}/steps/${id}/execute`],
      ['POST', `/api/executions/${id}/reset`],
      ['POST', `/api/executions/${id}/stop`],
      ['PUT', `/api/step-results/${id}`],
      ['DELETE', `/api/step-results/${id}`],
      ['GET', `/api/flows/${id}/logs`],
      ['DELETE', `/api/flows/${id}/logs`],
      ['GET', '/api/ws'],
      ['GET', '/api/anything-else'],
    ];
    for (const [method, url] of routes) {
      const response = await t.app.inject({ method, url });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('lets browsers send their origin with the sign-in forms, and accepts it', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/login' });
    // Under helmet's default no-referrer, browsers post forms with `Origin: null`, which is refused.
    expect(page.headers['referrer-policy']).toBe('same-origin');
    const posted = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: {
        host: 'localhost:5000',
        origin: 'http://localhost:5000',
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: 'email=nobody%40example.com&password=wrong-password',
    });
    expect(posted.statusCode).toBe(303);
  });

  it('creates, lists with stepCount, updates and deletes flows', async () => {
    const created = await alice.post('/api/flows', { name: 'Research', description: 'Market research' });
    expect(created.statusCode).toBe(201);
    const flow = created.json();
    expect(flow).toMatchObject({ name: 'Research', description: 'Market research', status: 'draft' });
    await alice.post('/api/steps', { flowId: flow.id, name: 'New Step 1', order: 1, systemPrompt: 'x' });
    const list = (await alice.get('/api/flows')).json();
    expect(list.find((f: { id: string }) => f.id === flow.id)).toMatchObject({ stepCount: 1, lastRun: null });
    const updated = await alice.put(`/api/flows/${flow.id}`, { status: 'active' });
    expect(updated.json()).toMatchObject({ status: 'active', name: 'Research' });
    expect((await alice.delete(`/api/flows/${flow.id}`)).statusCode).toBe(204);
    expect((await alice.get(`/api/flows/${flow.id}`)).statusCode).toBe(404);
  });

  it('refuses bad input with 400 and a message, losing nothing', async () => {
    const blank = await alice.post('/api/flows', { name: '  ', description: 'd' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toMatch(/name/);
    const extra = await alice.post('/api/flows', { name: 'n', description: 'd', userId: 'x' });
    expect(extra.statusCode).toBe(400);
    const badJson = await t.app.inject({
      method: 'POST',
      url: '/api/flows',
      headers: { cookie: (await signUp(t.app)).cookie, 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json().message).toBeTruthy();
    const flow = (await alice.post('/api/flows', { name: 'Keep', description: 'me' })).json();
    const badStep = await alice.post('/api/steps', {
      flowId: flow.id,
      name: 'S',
      order: 1,
      outputMode: 'poem',
    });
    expect(badStep.statusCode).toBe(400);
    const badLoop = await alice.post('/api/steps', {
      flowId: flow.id,
      name: 'S',
      order: 1,
      maxLoopIterations: 101,
    });
    expect(badLoop.statusCode).toBe(400);
    expect((await alice.get(`/api/flows/${flow.id}`)).json().name).toBe('Keep');
    expect((await alice.get('/api/executions/not-a-uuid')).statusCode).toBe(400);
  });

  it('allows input sources only from earlier steps', async () => {
    const { flow, first, second } = await createFlowWithTwoSteps(alice);
    const later = await alice.put(`/api/steps/${first.id}`, { inputSources: [second.id] });
    expect(later.statusCode).toBe(400);
    const earlier = await alice.put(`/api/steps/${second.id}`, { inputSources: [first.id] });
    expect(earlier.statusCode).toBe(200);
    expect(earlier.json().inputSources).toEqual([first.id]);
    expect((await alice.delete(`/api/steps/${first.id}`)).statusCode).toBe(204);
    const steps = (await alice.get(`/api/flows/${flow.id}/steps`)).json();
    expect(steps).toHaveLength(1);
    expect(steps[0].inputSources).toEqual([]);
  });

  it('runs a flow step by step: approve the first result, the second step uses it through [[step-1]]', async () => {
    const { flow, first, second } = await createFlowWithTwoSteps(alice);
    const started = await alice.post(`/api/flows/${flow.id}/execute`);
    expect(started.statusCode).toBe(201);
    const execution = started.json();
    expect(execution).toMatchObject({ status: 'running', currentStep: 1, flowId: flow.id, results: [] });
    expect(execution.executionCache).toHaveLength(2);

    const run1 = await alice.post(`/api/executions/${execution.id}/steps/${first.id}/execute`, {
      userInput: '',
    });
    expect(run1.statusCode).toBe(200);
    const [result1] = run1.json().results;
    expect(result1).toMatchObject({ stepId: first.id, approved: false, label: 'Branch 1' });
    expect(result1.result.length).toBeGreaterThan(0);
    expect(run1.json().execution.currentStep).toBe(2);

    const approved = await alice.put(`/api/step-results/${result1.id}`, { approved: true });
    expect(approved.json()).toMatchObject({ id: result1.id, approved: true });

    const run2 = await alice.post(`/api/executions/${execution.id}/steps/${second.id}/execute`, {});
    expect(run2.statusCode).toBe(200);
    expect(run2.json().execution).toMatchObject({ status: 'completed', currentStep: 3 });

    const logs = (await alice.get(`/api/flows/${flow.id}/logs`)).json();
    expect(logs).toHaveLength(2);
    const log2 = logs.find((l: { stepId: string }) => l.stepId === second.id);
    expect(log2.finalPrompt).toContain(result1.result);
    expect(log2.finalPrompt).not.toContain('[[step-1]]');
    expect(log2.stepLabels['step-1']).toBe(result1.result);
    expect(log2).toMatchObject({ success: true, keySource: 'offline', model: 'offline' });

    const view = (await alice.get(`/api/executions/${execution.id}`)).json();
    expect(view.results).toHaveLength(2);
    expect(view.version).toBeGreaterThan(0);
    const latest = (await alice.get(`/api/flows/${flow.id}/executions/latest`)).json();
    expect(latest.id).toBe(execution.id);
    const listed = (await alice.get('/api/flows')).json().find((f: { id: string }) => f.id === flow.id);
    expect(listed.lastRun).toBe(log2.requestedAt);
  });

  it('shows step labels in the logs as written: with underscores, one ending in one, and __proto__', async () => {
    const { flow, steps } = await createFlow(alice, 'Labels', [
      { name: 'draft_v1', systemPrompt: 'Write a draft.' },
      { name: 'notes_', systemPrompt: 'Write notes.' },
      { name: '__proto__', systemPrompt: 'Write a plan.' },
      { name: 'Merge', systemPrompt: 'Merge [[draft_v1]] with [[notes_]] and [[__proto__]].' },
    ]);
    const execution = (await alice.post(`/api/flows/${flow.id}/execute`)).json();
    const texts: string[] = [];
    for (const step of steps.slice(0, 3)) {
      const run = await alice.post(`/api/executions/${execution.id}/steps/${step.id}/execute`, {});
      const [result] = run.json().results;
      texts.push(result.result);
      await alice.put(`/api/step-results/${result.id}`, { approved: true });
    }
    const merged = await alice.post(`/api/executions/${execution.id}/steps/${steps[3].id}/execute`, {});
    expect(merged.statusCode).toBe(200);
    const logs = await alice.get(`/api/flows/${flow.id}/logs`);
    expect(logs.statusCode).toBe(200);
    const log = logs.json().find((l: { stepId: string }) => l.stepId === steps[3].id);
    // Own keys, __proto__ among them (an object literal here would set a prototype instead).
    expect(Object.entries(log.stepLabels).sort()).toEqual(
      [
        ['draft_v1', texts[0]],
        ['notes_', texts[1]],
        ['__proto__', texts[2]],
      ].sort(),
    );
  });

  it("shows as a flow's last run its latest step run, not an execution that ran nothing", async () => {
    const { flow, first } = await createFlowWithTwoSteps(alice);
    const lastRun = async () =>
      (await alice.get('/api/flows')).json().find((f: { id: string }) => f.id === flow.id).lastRun;
    const execution = (await alice.post(`/api/flows/${flow.id}/execute`)).json();
    expect(await lastRun()).toBeNull();
    await alice.post(`/api/executions/${execution.id}/steps/${first.id}/execute`, {});
    const [log] = (await alice.get(`/api/flows/${flow.id}/logs`)).json();
    await alice.post(`/api/flows/${flow.id}/execute`);
    expect(await lastRun()).toBe(log.requestedAt);
  });

  it('edits, unapproves and deletes results as events, and re-runs add versions', async () => {
    const { flow, first } = await createFlowWithTwoSteps(alice);
    const execution = (await alice.post(`/api/flows/${flow.id}/execute`)).json();
    const [result] = (await alice.post(`/api/executions/${execution.id}/steps/${first.id}/execute`)).json()
      .results;
    const edited = await alice.put(`/api/step-results/${result.id}`, { result: 'My own text', label: '' });
    expect(edited.json()).toMatchObject({ result: 'My own text', label: 'step_1' });
    const rerun = (await alice.post(`/api/executions/${execution.id}/steps/${first.id}/execute`)).json();
    expect(rerun.execution.results.filter((r: { stepId: string }) => r.stepId === first.id)).toHaveLength(2);
    expect((await alice.delete(`/api/step-results/${result.id}`)).statusCode).toBe(204);
    const view = (await alice.get(`/api/executions/${execution.id}`)).json();
    expect(view.results.map((r: { id: string }) => r.id)).not.toContain(result.id);
    const events = await t.store.readStream(`execution-${execution.id}`);
    expect(events.events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['ResultEdited', 'ResultDeleted', 'StepRunStarted', 'StepRunSucceeded']),
    );
  });

  it('keeps what the user sent each run, so a chat shows their messages again after a reload', async () => {
    const { flow, first, second } = await createFlowWithTwoSteps(alice);
    const execution = (await alice.post(`/api/flows/${flow.id}/execute`)).json();
    const sent = await alice.post(`/api/executions/${execution.id}/steps/${first.id}/execute`, {
      userInput: 'Trà xanh Thái Nguyên',
    });
    expect(sent.statusCode).toBe(200);
    expect(sent.json().execution.runs).toEqual([
      expect.objectContaining({ userInput: 'Trà xanh Thái Nguyên' }),
    ]);
    // Run mode's Execute with nothing typed sends no message.
    await alice.post(`/api/executions/${execution.id}/steps/${second.id}/execute`);

    // What a reload reads: the execution, and the flow's latest one.
    for (const url of [`/api/executions/${execution.id}`, `/api/flows/${flow.id}/executions/latest`]) {
      const runs = (await alice.get(url)).json().runs;
      expect(
        runs.map((run: { userInput?: string }) => run.userInput),
        url,
      ).toEqual(['Trà xanh Thái Nguyên', undefined]);
    }
    // The message is the run's recorded input, so replaying the events gives it back.
    const { events } = await t.store.readStream(`execution-${execution.id}`);
    const starts = events.filter((event) => event.type === 'StepRunStarted');
    expect(starts[0]!.data).toMatchObject({ userInput: 'Trà xanh Thái Nguyên' });

    // An execution projected before runs kept their input still reads, without the messages. (One never read
    // before: a view read once is kept by the server between the execution's changes, and the row is changed
    // here behind its back.)
    // A user of its own: the free allowance of the others is spent by the tests of this file.
    const dung = as(t.app, (await signUp(t.app, 'Dung')).cookie);
    const steps = await createFlowWithTwoSteps(dung);
    const older = (await dung.post(`/api/flows/${steps.flow.id}/execute`)).json();
    const ran = await dung.post(`/api/executions/${older.id}/steps/${steps.first.id}/execute`, {
      userInput: 'Trà ô long',
    });
    expect(ran.statusCode, ran.body).toBe(200);
    await t.db.sql`
      UPDATE executions SET runs = (SELECT jsonb_agg(run - 'userInput') FROM jsonb_array_elements(runs) run)
      WHERE id = ${older.id}`;
    const old = await dung.get(`/api/executions/${older.id}`);
    expect(old.statusCode).toBe(200);
    expect(old.json().runs).toHaveLength(1);
    expect(old.json().runs[0]).not.toHaveProperty('userInput');
  });

  it('stops and resets: a stopped execution refuses runs until reset, history is kept', async () => {
    const { flow, first } = await createFlowWithTwoSteps(alice);
    const execution = (await alice.post(`/api/flows/${flow.id}/execute`)).json();
    await alice.post(`/api/executions/${execution.id}/steps/${first.id}/execute`);
    const stopped = await alice.post(`/api/executions/${execution.id}/stop`);
    expect(stopped.json().status).toBe('stopped');
    const refused = await alice.post(`/api/executions/${execution.id}/steps/${first.id}/execute`);
    expect(refused.statusCode).toBe(409);
    const reset = await alice.post(`/api/executions/${execution.id}/reset`);
    expect(reset.json()).toMatchObject({ status: 'running', currentStep: 1 });
    expect(reset.json().executionCache.every((c: { status: string }) => c.status === 'pending')).toBe(true);
    expect(reset.json().results).toHaveLength(1);
    const again = await alice.post(`/api/executions/${execution.id}/steps/${first.id}/execute`);
    expect(again.statusCode).toBe(200);
  });

  it('refuses a step that requires input when the input is blank', async () => {
    const {
      flow,
      steps: [step],
    } = await createFlow(alice, 'Ask', [{ name: 'Q', systemPrompt: 'Answer', requiresUserInput: true }]);
    const execution = (await alice.post(`/api/flows/${flow.id}/execute`)).json();
    const blank = await alice.post(`/api/executions/${execution.id}/steps/${step.id}/execute`, {
      userInput: '   ',
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toBe('Step này yêu cầu user input. Vui lòng nhập input trước khi execute.');
    const given = await alice.post(`/api/executions/${execution.id}/steps/${step.id}/execute`, {
      userInput: 'Hà Nội',
    });
    expect(given.statusCode).toBe(200);
  });

  it('treats a repeated command id as one command', async () => {
    const flow = (await alice.post('/api/flows', { name: 'Idem', description: 'potent' })).json();
    await alice.post('/api/steps', { flowId: flow.id, name: 'S', order: 1, systemPrompt: 'x' });
    const headers = { 'idempotency-key': `start-${flow.id}` };
    const one = (await alice.post(`/api/flows/${flow.id}/execute`, undefined, headers)).json();
    const execution = (await alice.post(`/api/flows/${flow.id}/execute`, undefined, headers)).json();
    expect(execution.id).toBe(one.id);
    const stopKey = { 'idempotency-key': `stop-${one.id}` };
    const stopped = (await alice.post(`/api/executions/${one.id}/stop`, undefined, stopKey)).json();
    await alice.post(`/api/executions/${one.id}/reset`);
    // The same stop again answers as the first did, and stops nothing.
    const second = (await alice.post(`/api/executions/${one.id}/stop`, undefined, stopKey)).json();
    expect(second).toEqual(stopped);
    expect((await alice.get(`/api/executions/${one.id}`)).json().status).toBe('running');
  });

  it("never shows another user's data: their ids give 404", async () => {
    const { flow, first } = await createFlowWithTwoSteps(alice);
    const execution = (await alice.post(`/api/flows/${flow.id}/execute`)).json();
    const [result] = (await alice.post(`/api/executions/${execution.id}/steps/${first.id}/execute`)).json()
      .results;
    expect((await bob.get('/api/flows')).json()).toEqual([]);
    const attempts = [
      await bob.get(`/api/flows/${flow.id}`),
      await bob.put(`/api/flows/${flow.id}`, { name: 'mine' }),
      await bob.delete(`/api/flows/${flow.id}`),
      await bob.get(`/api/flows/${flow.id}/steps`),
      await bob.post('/api/steps', { flowId: flow.id, name: 'S', order: 3 }),
      await bob.put(`/api/steps/${first.id}`, { systemPrompt: 'mine' }),
      await bob.delete(`/api/steps/${first.id}`),
      await bob.post(`/api/flows/${flow.id}/execute`),
      await bob.get(`/api/flows/${flow.id}/executions/latest`),
      await bob.get(`/api/executions/${execution.id}`),
      await bob.post(`/api/executions/${execution.id}/steps/${first.id}/execute`),
      await bob.post(`/api/executions/${execution.id}/stop`),
      await bob.post(`/api/executions/${execution.id}/reset`),
      await bob.put(`/api/step-results/${result.id}`, { approved: true }),
      await bob.delete(`/api/step-results/${result.id}`),
      await bob.get(`/api/flows/${flow.id}/logs`),
      await bob.delete(`/api/flows/${flow.id}/logs`),
    ];
    for (const response of attempts) expect(response.statusCode, response.body).toBe(404);
    expect((await alice.get(`/api/executions/${execution.id}`)).json().status).toBe('running');
  });

  it('clears the request logs of a flow', async () => {
    // A user of its own: the free allowance of the others is spent by the tests before.
    const carol = as(t.app, (await signUp(t.app, 'Carol')).cookie);
    const { flow, first } = await createFlowWithTwoSteps(carol);
    const execution = (await carol.post(`/api/flows/${flow.id}/execute`)).json();
    expect((await carol.post(`/api/executions/${execution.id}/steps/${first.id}/execute`)).statusCode).toBe(
      200,
    );
    expect((await carol.get(`/api/flows/${flow.id}/logs`)).json()).toHaveLength(1);
    expect((await carol.delete(`/api/flows/${flow.id}/logs`)).statusCode).toBe(204);
    expect((await carol.get(`/api/flows/${flow.id}/logs`)).json()).toEqual([]);
  });
});

describe('HTTP API with a slow model', () => {
  let t: TestApp;
  let alice: Client;

  beforeAll(async () => {
    // Each chunk of the offline answer takes 40 ms, so a run stays in progress long enough to collide with.
    t = await createTestApp(
      {},
      {
        resolveModel: () => ({ provider: createOfflineProvider({ chunkDelayMs: 40 }), keySource: 'offline' }),
      },
    );
    alice = as(t.app, (await signUp(t.app, 'Alice')).cookie);
  });
  afterAll(() => t.close());

  it('runs a double-clicked Execute once', async () => {
    const { flow, first } = await createFlowWithTwoSteps(alice);
    const execution = (await alice.post(`/api/flows/${flow.id}/execute`)).json();
    const url = `/api/executions/${execution.id}/steps/${first.id}/execute`;
    const [a, b] = await Promise.all([alice.post(url), alice.post(url)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const view = (await alice.get(`/api/executions/${execution.id}`)).json();
    expect(view.results).toHaveLength(1);
    expect(view.runs).toHaveLength(1);
  });

  it('stops during a running model call: the run ends as failed and no result is appended after stop', async () => {
    const { flow, first } = await createFlowWithTwoSteps(alice);
    const execution = (await alice.post(`/api/flows/${flow.id}/execute`)).json();
    const running = alice.post(`/api/executions/${execution.id}/steps/${first.id}/execute`);
    await expect
      .poll(async () => (await alice.get(`/api/executions/${execution.id}`)).json().runs.length)
      .toBe(1);
    const stopped = await alice.post(`/api/executions/${execution.id}/stop`);
    expect(stopped.json().status).toBe('stopped');
    const response = await running;
    expect(response.statusCode).toBe(409);
    const view = (await alice.get(`/api/executions/${execution.id}`)).json();
    expect(view.results).toEqual([]);
    expect(view.runs[0]).toMatchObject({ status: 'failed', message: 'Stopped' });
    const types = (await t.store.readStream(`execution-${execution.id}`)).events.map((e) => e.type);
    expect(types.slice(-2)).toEqual(['ExecutionStopped', 'StepRunFailed']);
  });

  /** A step run whose start is recorded as made by `instanceId` and whose model call no one is making. */
  async function startedWithoutCall(executionId: string, userId: string, stepId: string, instanceId: number) {
    await t.app.executions.handle(executionId, userId, {
      type: 'StartStepRun',
      data: {
        runId: crypto.randomUUID(),
        stepId,
        loopIteration: null,
        userInput: '',
        model: 'offline',
        keySource: 'offline',
        instanceId,
        conversation: { userNotes: '', rejectedIdeas: '' },
      },
    });
  }

  it('fails at once the runs of a server process that has died, and it can run again', async () => {
    const { flow, first } = await createFlowWithTwoSteps(alice);
    const execution = (await alice.post(`/api/flows/${flow.id}/execute`)).json();
    // An instance number no live process holds the lock of: its process is gone.
    const [dead] = await t.db.sql<{ id: number }[]>`SELECT nextval('server_instances')::integer AS id`;
    await startedWithoutCall(execution.id, execution.userId, first.id, dead!.id);
    expect(await t.app.crashSweep.run()).toBe(1);
    const view = (await alice.get(`/api/executions/${execution.id}`)).json();
    expect(view.runs[0]).toMatchObject({ status: 'failed', message: 'interrupted' });
    const rerun = await alice.post(`/api/executions/${execution.id}/steps/${first.id}/execute`);
    expect(rerun.statusCode).toBe(200);
  });

  it('lists an execution as Running only while a step of it runs, the same as its own view', async () => {
    const { flow, first } = await createFlowWithTwoSteps(alice);
    const execution = (await alice.post(`/api/flows/${flow.id}/execute`)).json();
    const listed = async () =>
      ((await alice.get(`/api/flows/${flow.id}/executions`)).json() as { id: string; status: string }[]).find(
        (item) => item.id === execution.id,
      )?.status;
    const versions = async () =>
      ((await alice.get(`/api/flows/${flow.id}/versions`)).json() as { executions: { status: string }[] }[])
        .flatMap((version) => version.executions)
        .map((item) => item.status);
    // Started and left: nothing runs, so it waits for the user.
    expect(await listed()).toBe('waiting');
    expect(await versions()).toEqual(['waiting']);

    const [dead] = await t.db.sql<{ id: number }[]>`SELECT nextval('server_instances')::integer AS id`;
    await startedWithoutCall(execution.id, execution.userId, first.id, dead!.id);
    expect(await listed()).toBe('running');
    expect(shownStatus((await alice.get(`/api/executions/${execution.id}`)).json())).toBe('running');

    // Its runner died: once the sweep ends the run, neither the list nor the execution says Running.
    expect(await t.app.crashSweep.run()).toBe(1);
    const view = (await alice.get(`/api/executions/${execution.id}`)).json();
    expect(shownStatus(view)).toBe('waiting');
    expect(await listed()).toBe('waiting');
    expect(await versions()).toEqual(['waiting']);
  });

  it('fails a run of its own process that it is not making once older than the model timeout', async () => {
    const { flow, first } = await createFlowWithTwoSteps(alice);
    const execution = (await alice.post(`/api/flows/${flow.id}/execute`)).json();
    // The start recorded, the model call gone: what a failure to record the outcome would leave.
    await startedWithoutCall(execution.id, execution.userId, first.id, t.app.serverInstance.id);
    expect(await t.app.crashSweep.run(60_000)).toBe(0);
    expect(await t.app.crashSweep.run(0)).toBe(1);
    const view = (await alice.get(`/api/executions/${execution.id}`)).json();
    expect(view.runs[0]).toMatchObject({ status: 'failed', message: 'interrupted' });
    const rerun = await alice.post(`/api/executions/${execution.id}/steps/${first.id}/execute`);
    expect(rerun.statusCode).toBe(200);
  });
});

describe('model-call rate limit', () => {
  let t: TestApp;
  afterAll(() => t.close());

  it('limits step runs per user, not per address, and leaves other users alone', async () => {
    t = await createTestApp({ modelCallsPerMinute: 2 });
    const alice = as(t.app, (await signUp(t.app, 'Alice')).cookie);
    const bob = as(t.app, (await signUp(t.app, 'Bob')).cookie);
    const run = async (client: Client) => {
      const { flow, first } = await createFlowWithTwoSteps(client);
      const execution = (await client.post(`/api/flows/${flow.id}/execute`)).json();
      return (await client.post(`/api/executions/${execution.id}/steps/${first.id}/execute`)).statusCode;
    };
    expect([await run(alice), await run(alice), await run(alice)]).toEqual([200, 200, 429]);
    expect(await run(bob)).toBe(200);
  });
});
