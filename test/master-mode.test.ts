import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createOfflineProvider, type ModelProvider, type ModelRequest } from '../src/ai';
import {
  MAX_MASTER_ROWS,
  type MasterSessionWithSteps,
  type MasterStep,
  TOO_MANY_ROWS,
} from '../src/domain/master-mode/master-session';
import { rebuildProjections } from '../src/projections/rebuild';
import { callOf, executeAllEnded, executeAllToTheEnd } from './support/execute-all';
import { as, type Client, createFlow, createTestApp, signUp, type TestApp } from './support/test-app';

/** The offline model, except that a prompt holding WAIT is answered only when the test opens the gate. */
function gatedModel() {
  const offline = createOfflineProvider();
  const calls: ModelRequest[] = [];
  let open: (() => void) | null = null;
  const provider: ModelProvider = {
    kind: 'offline',
    model: 'offline',
    stream(request) {
      calls.push(request);
      if (!request.prompt.includes('WAIT')) return offline.stream(request);
      const gate = new Promise<void>((resolve) => {
        open = resolve;
      });
      return Object.assign((async function* () {})(), {
        final: gate.then(() => ({ text: 'answered after the wait', usage: null })),
      });
    },
  };
  return {
    provider,
    calls,
    waiting: () => open !== null,
    release() {
      open?.();
      open = null;
    },
  };
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function newSession(client: Client, name = 'Worksheet', flowId?: string) {
  const response = await client.post('/api/master-mode/standalone', { name, ...(flowId ? { flowId } : {}) });
  expect(response.statusCode).toBe(201);
  return response.json() as MasterSessionWithSteps;
}

async function addRow(client: Client, sessionId: string, fields: Partial<MasterStep> & { stepName: string }) {
  const response = await client.post('/api/master-mode/steps', { sessionId, ...fields });
  expect(response.statusCode).toBe(201);
  return response.json() as MasterStep;
}

const sessionOf = async (client: Client, id: string) =>
  (await client.get(`/api/master-mode/session/${id}`)).json() as MasterSessionWithSteps;

describe('master mode', () => {
  let t: TestApp;
  let alice: Client;
  let bob: Client;
  const model = gatedModel();
  const allowed = createServer((req, res) => {
    if (req.url?.startsWith('/redirect')) {
      res.writeHead(302, { location: `http://${other}/secret` });
      res.end();
      return;
    }
    if (req.url?.startsWith('/missing')) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('no such thing');
      return;
    }
    if (req.url?.startsWith('/huge')) {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('x'.repeat(2 * 1024 * 1024));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ path: req.url, temperature: 31 }));
  });
  const otherHits: string[] = [];
  const otherServer = createServer((req, res) => {
    otherHits.push(req.url ?? '');
    res.end('should never be reached');
  });
  let host = '';
  let other = '';

  beforeAll(async () => {
    host = await listen(allowed);
    other = await listen(otherServer);
    t = await createTestApp(
      { masterModeApiHosts: [host], freeStepAllowance: 6 },
      { resolveModel: () => ({ provider: model.provider, keySource: 'offline' }) },
    );
    alice = as(t.app, (await signUp(t.app, 'Alice')).cookie);
    bob = as(t.app, (await signUp(t.app, 'Bob')).cookie);
  });
  afterAll(async () => {
    await t.close();
    allowed.close();
    otherServer.close();
  });

  describe('sessions and rows', () => {
    it('lists every session of the user, with a flow or without, and deletes one only for its owner', async () => {
      const standalone = await newSession(alice, 'Loose sheet');
      const row = await addRow(alice, standalone.id, {
        stepName: 'Only row',
        stepType: 'text',
        userInput: 'kept text',
      });
      const listed = (await alice.get('/api/master-mode/sessions')).json() as {
        id: string;
        stepCount: number;
      }[];
      expect(listed.find((s) => s.id === standalone.id)).toMatchObject({ flowId: null, stepCount: 1 });
      expect(
        ((await bob.get('/api/master-mode/sessions')).json() as { id: string }[]).map((s) => s.id),
      ).not.toContain(standalone.id);
      expect((await alice.post(`/api/master-mode/execute/${row.id}`)).statusCode).toBe(200);

      expect((await bob.delete(`/api/master-mode/session/${standalone.id}`)).statusCode).toBe(404);
      expect((await alice.get(`/api/master-mode/session/${standalone.id}`)).statusCode).toBe(200);
      expect((await alice.delete(`/api/master-mode/session/${standalone.id}`)).statusCode).toBe(204);
      expect((await alice.get(`/api/master-mode/session/${standalone.id}`)).statusCode).toBe(404);
      expect((await alice.delete(`/api/master-mode/session/${standalone.id}`)).statusCode).toBe(404);
      const [{ count }] = await t.db.sql<[{ count: number }]>`
        SELECT count(*)::int AS count FROM master_mode_runs WHERE session_id = ${standalone.id}`;
      // The record of what ran outlives the session, as the event log does.
      expect(count).toBe(1);
    });

    it('makes every reference that names a flow step, by step-N or by name, a row reference', async () => {
      const flow = (await alice.post('/api/flows', { name: 'Named', description: 'refs' })).json();
      const prompts = [
        'Outline the topic.',
        'Draft from [[Dàn ý]] and [[step-1]].',
        'Polish [[bản nháp]], not [[Other]].',
      ];
      for (const [i, name] of ['Dàn ý', 'Bản nháp', 'Hoàn thiện'].entries()) {
        await alice.post('/api/steps', { flowId: flow.id, order: i + 1, name, systemPrompt: prompts[i] });
      }
      const session = await newSession(alice, 'From flow', flow.id);
      expect(session.steps.map((s) => s.systemPrompt)).toEqual([
        'Outline the topic.',
        'Draft from [[row-1]] and [[row-1]].',
        'Polish [[row-2]], not [[Other]].',
      ]);
    });

    it('needs a session name', async () => {
      for (const body of [{}, { name: '' }, { name: '   ' }]) {
        const response = await alice.post('/api/master-mode/standalone', body);
        expect(response.statusCode).toBe(400);
        expect(response.json().message).toBe('name: Please enter a session name');
      }
    });

    it('starts a session from a flow with one ai row per step, [[step-N]] becoming [[row-N]]', async () => {
      const { flow } = await createFlow(alice, 'Trip', [
        { name: 'Ideas', systemPrompt: 'List places to visit', requiresUserInput: true },
        { name: 'Plan', systemPrompt: 'Plan a day around [[step-1]]' },
      ]);
      const session = await newSession(alice, 'Trip Session', flow.id);
      expect(session).toMatchObject({ sessionName: 'Trip Session', flowId: flow.id });
      expect(
        session.steps.map((s) => [
          s.order,
          s.stepName,
          s.systemPrompt,
          s.stepType,
          s.isRequired,
          s.userInput,
          s.result,
        ]),
      ).toEqual([
        [1, 'Ideas', 'List places to visit', 'ai', true, '', ''],
        [2, 'Plan', 'Plan a day around [[row-1]]', 'ai', false, '', ''],
      ]);
      expect(await sessionOf(alice, session.id)).toEqual(JSON.parse(JSON.stringify(session)));

      const listed = (await alice.get(`/api/master-mode/sessions?flowId=${flow.id}`)).json();
      expect(listed).toEqual([expect.objectContaining({ id: session.id, stepCount: 2 })]);
      expect((await bob.get(`/api/master-mode/sessions?flowId=${flow.id}`)).json()).toEqual([]);
      expect(
        (await bob.post('/api/master-mode/standalone', { name: 'Mine', flowId: flow.id })).statusCode,
      ).toBe(404);
    });

    it('adds, edits (partially) and deletes rows; rows come back in order', async () => {
      const session = await newSession(alice);
      expect(session.steps).toEqual([]);
      const first = await addRow(alice, session.id, { stepName: 'Step 1' });
      expect(first).toMatchObject({ order: 1, stepType: 'ai', isRequired: false, userInput: '', result: '' });
      const third = await addRow(alice, session.id, { stepName: 'Step 3', order: 3, stepType: 'text' });
      const second = await addRow(alice, session.id, { stepName: 'Step 2', order: 2 });
      expect((await sessionOf(alice, session.id)).steps.map((s) => s.id)).toEqual([
        first.id,
        second.id,
        third.id,
      ]);

      const edited = await alice.put(`/api/master-mode/steps/${first.id}`, { userInput: 'hello' });
      expect(edited.statusCode).toBe(200);
      expect(edited.json()).toMatchObject({ userInput: 'hello', systemPrompt: '', stepType: 'ai' });
      const more = await alice.put(`/api/master-mode/steps/${first.id}`, {
        systemPrompt: 'Be kind',
        stepType: 'calculation',
        isRequired: true,
        stepName: 'Greeting',
      });
      expect(more.json()).toMatchObject({
        userInput: 'hello',
        systemPrompt: 'Be kind',
        stepType: 'calculation',
        isRequired: true,
        stepName: 'Greeting',
      });

      expect((await alice.delete(`/api/master-mode/steps/${second.id}`)).statusCode).toBe(204);
      expect((await sessionOf(alice, session.id)).steps.map((s) => s.id)).toEqual([first.id, third.id]);
      expect((await alice.delete(`/api/master-mode/steps/${second.id}`)).statusCode).toBe(404);
    });

    it('holds a session to its most rows, also against rows added at once, each placed after the last', async () => {
      const session = await newSession(alice);
      await t.db.sql`
        INSERT INTO master_mode_steps (session_id, "order", step_name)
        SELECT ${session.id}, n, 'Row ' || n FROM generate_series(1, ${MAX_MASTER_ROWS - 10}::int) AS n`;
      const added = await Promise.all(
        Array.from({ length: 25 }, (_, i) =>
          alice.post('/api/master-mode/steps', { sessionId: session.id, stepName: `At once ${i}` }),
        ),
      );
      expect(added.filter((r) => r.statusCode === 201)).toHaveLength(10);
      for (const refused of added.filter((r) => r.statusCode !== 201)) {
        expect(refused.statusCode).toBe(400);
        expect(refused.json()).toMatchObject({ code: 'rule_violated', message: TOO_MANY_ROWS });
      }
      const rows = (await sessionOf(alice, session.id)).steps;
      expect(rows.map((row) => row.order)).toEqual(Array.from({ length: MAX_MASTER_ROWS }, (_, i) => i + 1));
    });

    it('refuses bad input with 400', async () => {
      const session = await newSession(alice);
      const row = await addRow(alice, session.id, { stepName: 'Row' });
      const bad: Array<[string, Promise<{ statusCode: number }>]> = [
        ['session id', alice.get('/api/master-mode/session/not-a-uuid')],
        ['step type', alice.put(`/api/master-mode/steps/${row.id}`, { stepType: 'sql' })],
        ['unknown field', alice.put(`/api/master-mode/steps/${row.id}`, { result: 'forged' })],
        ['blank step name', alice.put(`/api/master-mode/steps/${row.id}`, { stepName: ' ' })],
        ['required flag', alice.put(`/api/master-mode/steps/${row.id}`, { isRequired: 'yes' })],
        ['new row without name', alice.post('/api/master-mode/steps', { sessionId: session.id })],
        [
          'new row order',
          alice.post('/api/master-mode/steps', { sessionId: session.id, stepName: 'x', order: 0 }),
        ],
        ['flow id', alice.post('/api/master-mode/standalone', { name: 'x', flowId: 'nope' })],
        ['execute body', alice.post(`/api/master-mode/execute/${row.id}`, { go: true })],
        ['step id', alice.post('/api/master-mode/execute/123')],
      ];
      for (const [what, response] of bad) expect([what, (await response).statusCode]).toEqual([what, 400]);
    });

    it('imports a session from Workflow JSON, validated', async () => {
      const response = await alice.post('/api/master-mode/import', {
        name: 'Imported',
        description: 'From a file',
        steps: [
          { name: 'Second', order: 2, systemPrompt: 'Improve [[step-1]]', outputMode: 'single' },
          { name: 'First', order: 1, systemPrompt: 'Draft', outputMode: 'single', requiresUserInput: true },
        ],
      });
      expect(response.statusCode).toBe(201);
      const session = response.json() as MasterSessionWithSteps;
      expect(session.sessionName).toBe('Imported Session');
      expect(session.flowId).toBeNull();
      expect(session.steps.map((s) => [s.stepName, s.systemPrompt, s.isRequired])).toEqual([
        ['First', 'Draft', true],
        ['Second', 'Improve [[row-1]]', false],
      ]);
      for (const body of [{}, { name: 'x', steps: [] }, { name: 'x', steps: [{ name: 'a' }] }, []]) {
        expect((await alice.post('/api/master-mode/import', body)).statusCode).toBe(400);
      }
    });

    it("answers 404 for another user's session and rows", async () => {
      const session = await newSession(alice);
      const row = await addRow(alice, session.id, {
        stepName: 'Private',
        stepType: 'text',
        userInput: 'mine',
      });
      const tries = [
        bob.get(`/api/master-mode/session/${session.id}`),
        bob.get(`/api/master-mode/session/${session.id}/runs`),
        bob.post('/api/master-mode/steps', { sessionId: session.id, stepName: 'Intruder' }),
        bob.put(`/api/master-mode/steps/${row.id}`, { userInput: 'changed' }),
        bob.delete(`/api/master-mode/steps/${row.id}`),
        bob.post(`/api/master-mode/execute/${row.id}`),
        bob.post(`/api/master-mode/execute-all/${session.id}`),
        bob.post(`/api/master-mode/reset/${session.id}`),
        bob.post(`/api/master-mode/stop/${session.id}`),
      ];
      for (const response of await Promise.all(tries)) expect(response.statusCode).toBe(404);
      expect((await sessionOf(alice, session.id)).steps).toEqual([
        expect.objectContaining({ stepName: 'Private', userInput: 'mine', result: '' }),
      ]);
    });
  });

  describe('running rows', () => {
    it('text passes its input through with [[row-N]] replaced', async () => {
      const session = await newSession(alice);
      await addRow(alice, session.id, {
        stepName: 'City',
        stepType: 'text',
        userInput: 'Hue',
        result: 'Hue',
      });
      const row = await addRow(alice, session.id, {
        stepName: 'Sentence',
        stepType: 'text',
        userInput: 'Visit [[row-1]] and [[row-7]]',
      });
      const response = await alice.post(`/api/master-mode/execute/${row.id}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ id: row.id, result: 'Visit Hue and [[row-7]]' });
    });

    it('calculation evaluates safely and says what is wrong', async () => {
      const session = await newSession(alice);
      await addRow(alice, session.id, { stepName: 'Price', stepType: 'text', userInput: '12.5' });
      const total = await addRow(alice, session.id, {
        stepName: 'Total',
        stepType: 'calculation',
        userInput: '[[row-1]] * 4 - (2 + 1) % 2',
      });
      // Dòng 1 chưa có kết quả.
      const early = await alice.post(`/api/master-mode/execute/${total.id}`);
      expect(early.statusCode).toBe(400);
      expect(early.json().message).toBe('Dòng 002 "Total": Dòng 001 chưa có kết quả');

      expect((await executeAllToTheEnd(callOf(alice), session.id)).outcome).toBe('completed');
      expect((await sessionOf(alice, session.id)).steps.map((s) => s.result)).toEqual(['12.5', '49']);

      for (const [hostile, message] of [
        ['constructor.constructor("return process")()', /Ký tự "c"/],
        ['2 ** 4096', /Ký tự "\*"/],
        [`${'('.repeat(100)}1${')'.repeat(100)}`, /lồng nhau quá sâu/],
        ['1+'.repeat(2000), /tối đa 1000 ký tự/],
        ['1 / 0', /Chia cho 0/],
      ] as const) {
        await alice.put(`/api/master-mode/steps/${total.id}`, { userInput: hostile });
        const response = await alice.post(`/api/master-mode/execute/${total.id}`);
        expect(response.statusCode).toBe(400);
        expect(response.json().message).toMatch(message);
      }
      expect((await sessionOf(alice, session.id)).steps[1]!.result).toBe('49');
    });

    it('ai calls the model with the prompt and input, references resolved, and records the run', async () => {
      const session = await newSession(alice);
      await addRow(alice, session.id, { stepName: 'Topic', stepType: 'text', userInput: 'green tea' });
      const ask = await addRow(alice, session.id, {
        stepName: 'Explain',
        systemPrompt: 'Explain [[row-1]] to a child',
        userInput: 'In two sentences about [[row-1]]',
      });
      await executeAllToTheEnd(callOf(alice), session.id);
      const prompt = model.calls.at(-1)!.prompt;
      expect(prompt).toBe('Explain green tea to a child\n\n## User input\nIn two sentences about green tea');
      const row = (await sessionOf(alice, session.id)).steps[1]!;
      expect(row.result).toContain('[Offline model]');

      const runs = (await alice.get(`/api/master-mode/session/${session.id}/runs`)).json();
      expect(runs[0]).toMatchObject({
        stepId: ask.id,
        rowNumber: 2,
        stepType: 'ai',
        systemPrompt: 'Explain [[row-1]] to a child',
        finalPrompt: prompt,
        rowReferences: { '1': 'green tea' },
        model: 'offline',
        keySource: 'offline',
        result: row.result,
        success: true,
      });
      expect(runs[1]).toMatchObject({ stepType: 'text', result: 'green tea', success: true });
      expect(runs).toHaveLength(2);
    });

    it('api GETs the URL of its input from allowed hosts only, within limits', async () => {
      const session = await newSession(alice);
      await addRow(alice, session.id, {
        stepName: 'City',
        stepType: 'text',
        userInput: 'hanoi',
        result: 'hanoi',
      });
      const row = await addRow(alice, session.id, {
        stepName: 'Weather',
        stepType: 'api',
        userInput: `http://${host}/weather?city=[[row-1]]`,
      });
      const ok = await alice.post(`/api/master-mode/execute/${row.id}`);
      expect(ok.statusCode).toBe(200);
      expect(JSON.parse(ok.json().result)).toEqual({ path: '/weather?city=hanoi', temperature: 31 });

      const refusals: Array<[string, number, RegExp]> = [
        [`http://${other}/data`, 400, new RegExp(`Host ${other} không được phép`)],
        [`http://${host}/redirect`, 502, new RegExp(`Host ${other} không được phép`)],
        [`http://${host}/missing`, 502, /API trả lời 404 Not Found: no such thing/],
        [`http://${host}/huge`, 502, /lớn hơn 1 MB/],
        ['file:///etc/passwd', 400, /chỉ được gọi URL http/],
      ];
      for (const [url, status, message] of refusals) {
        await alice.put(`/api/master-mode/steps/${row.id}`, { userInput: url });
        const response = await alice.post(`/api/master-mode/execute/${row.id}`);
        expect([url, response.statusCode]).toEqual([url, status]);
        expect(response.json().message).toMatch(message);
      }
      expect(otherHits).toEqual([]);
    });

    it('refuses api rows when no host is allowed', async () => {
      const closed = await createTestApp();
      try {
        const client = as(closed.app, (await signUp(closed.app)).cookie);
        const session = await newSession(client);
        const row = await addRow(client, session.id, {
          stepName: 'Call',
          stepType: 'api',
          userInput: `http://${host}/x`,
        });
        const response = await client.post(`/api/master-mode/execute/${row.id}`);
        expect(response.statusCode).toBe(400);
        expect(response.json().message).toMatch(/Server này đã tắt API row.*MASTER_MODE_API_HOSTS/);
      } finally {
        await closed.close();
      }
    });
  });

  describe('Execute All, Stop and Reset', () => {
    it('runs the rows in order, each seeing the results before it', async () => {
      const session = await newSession(alice);
      await addRow(alice, session.id, { stepName: 'A', stepType: 'text', userInput: 'a' });
      await addRow(alice, session.id, { stepName: 'B', stepType: 'text', userInput: '[[row-1]]b' });
      await addRow(alice, session.id, { stepName: 'C', stepType: 'text', userInput: '[[row-2]]c' });
      await addRow(alice, session.id, { stepName: 'Length', stepType: 'calculation', userInput: '10 * 3' });
      expect(await executeAllToTheEnd(callOf(alice), session.id)).toMatchObject({
        outcome: 'completed',
        message: null,
        stopRequested: false,
      });
      expect((await sessionOf(alice, session.id)).steps.map((s) => s.result)).toEqual([
        'a',
        'ab',
        'abc',
        '30',
      ]);
      const runs = (await alice.get(`/api/master-mode/session/${session.id}/runs`)).json();
      expect(runs.map((r: { rowNumber: number }) => r.rowNumber)).toEqual([4, 3, 2, 1]);
    });

    it('stops between rows: the running row ends, the next ones do not run', async () => {
      const session = await newSession(alice);
      await addRow(alice, session.id, { stepName: 'Slow', systemPrompt: 'WAIT for it' });
      await addRow(alice, session.id, { stepName: 'Next', stepType: 'text', userInput: 'next' });
      await addRow(alice, session.id, { stepName: 'Last', stepType: 'text', userInput: 'last' });
      expect((await alice.post(`/api/master-mode/stop/${session.id}`)).json()).toEqual({ stopped: false });

      // Answered at once, with where to follow it; the rows run after the answer.
      const all = await alice.post(`/api/master-mode/execute-all/${session.id}`);
      expect(all.statusCode).toBe(202);
      const { runAllId } = all.json();
      expect(all.headers.location).toBe(`/api/master-mode/session/${session.id}/execute-all/${runAllId}`);
      await expect.poll(() => model.waiting()).toBe(true);
      const during = await sessionOf(alice, session.id);
      expect(during.runningStepIds).toEqual([during.steps[0]!.id]);
      expect(during.executeAll).toMatchObject({ runAllId, stopRequested: false });
      expect((await alice.get(all.headers.location as string)).json()).toMatchObject({
        id: runAllId,
        outcome: null,
        endedAt: null,
      });
      const again = await alice.post(`/api/master-mode/execute-all/${session.id}`);
      expect(again.statusCode).toBe(409);
      const stop = await alice.post(`/api/master-mode/stop/${session.id}`);
      expect(stop.json()).toEqual({ stopped: true });
      model.release();
      expect(await executeAllEnded(callOf(alice), session.id, runAllId)).toMatchObject({
        outcome: 'stopped',
        stopRequested: true,
      });
      const after = await sessionOf(alice, session.id);
      expect(after.runningStepIds).toEqual([]);
      expect(after.executeAll).toBeNull();
      expect(after.steps.map((s) => s.result)).toEqual(['answered after the wait', '', '']);

      // The next Execute All runs to the end again.
      model.calls.length = 0;
      const rerun = executeAllToTheEnd(callOf(alice), session.id);
      await expect.poll(() => model.waiting()).toBe(true);
      model.release();
      expect((await rerun).outcome).toBe('completed');
      expect((await sessionOf(alice, session.id)).steps.map((s) => s.result)).toEqual([
        'answered after the wait',
        'next',
        'last',
      ]);
    });

    it('refuses to start when a required row has blank input, running nothing', async () => {
      const session = await newSession(alice);
      await addRow(alice, session.id, { stepName: 'A', stepType: 'text', userInput: 'a' });
      await addRow(alice, session.id, { stepName: 'Topic', stepType: 'text', isRequired: true });
      const response = await alice.post(`/api/master-mode/execute-all/${session.id}`);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('Dòng 002 "Topic" là bắt buộc: hãy nhập input trước khi chạy');
      expect((await sessionOf(alice, session.id)).steps.map((s) => s.result)).toEqual(['', '']);
    });

    it('ends at a failing row with its message', async () => {
      const session = await newSession(alice);
      await addRow(alice, session.id, { stepName: 'A', stepType: 'text', userInput: 'a' });
      await addRow(alice, session.id, { stepName: 'Bad', stepType: 'calculation', userInput: '1 +' });
      await addRow(alice, session.id, { stepName: 'C', stepType: 'text', userInput: 'c' });
      expect(await executeAllToTheEnd(callOf(alice), session.id)).toMatchObject({
        outcome: 'failed',
        message: 'Dòng 002 "Bad": Phép tính kết thúc quá sớm',
      });
      expect((await sessionOf(alice, session.id)).steps.map((s) => s.result)).toEqual(['a', '', '']);
    });

    it('reset clears the results and keeps the record of the runs', async () => {
      const session = await newSession(alice);
      await addRow(alice, session.id, { stepName: 'A', stepType: 'text', userInput: 'a' });
      await executeAllToTheEnd(callOf(alice), session.id);
      const reset = await alice.post(`/api/master-mode/reset/${session.id}`);
      expect(reset.statusCode).toBe(200);
      expect(reset.json().steps.map((s: MasterStep) => s.result)).toEqual(['']);
      expect((await alice.get(`/api/master-mode/session/${session.id}/runs`)).json()).toHaveLength(1);
    });
  });

  describe('Execute All reads what each row needs', () => {
    it('sees an edit, an added row and a single run made while a row was running', async () => {
      const session = await newSession(alice);
      await addRow(alice, session.id, { stepName: 'Slow', systemPrompt: 'WAIT for it' });
      const second = await addRow(alice, session.id, { stepName: 'B', stepType: 'text', userInput: 'old' });
      await addRow(alice, session.id, { stepName: 'C', stepType: 'text', userInput: '[[row-2]] [[row-4]]' });
      const fourth = await addRow(alice, session.id, { stepName: 'D', stepType: 'text', userInput: 'four' });
      const all = await alice.post(`/api/master-mode/execute-all/${session.id}`);
      expect(all.statusCode).toBe(202);
      await expect.poll(() => model.waiting()).toBe(true);
      // While row 1 waits: row 2 edited, row 4 run on its own, a row 5 added.
      expect((await alice.put(`/api/master-mode/steps/${second.id}`, { userInput: 'new' })).statusCode).toBe(
        200,
      );
      expect((await alice.post(`/api/master-mode/execute/${fourth.id}`)).json().result).toBe('four');
      await addRow(alice, session.id, { stepName: 'E', stepType: 'text', userInput: '[[row-3]]!' });
      model.release();
      expect((await executeAllEnded(callOf(alice), session.id, all.json().runAllId)).outcome).toBe(
        'completed',
      );
      expect((await sessionOf(alice, session.id)).steps.map((s) => s.result)).toEqual([
        'answered after the wait',
        'new',
        'new four',
        'four',
        'new four!',
      ]);
    });

    it('sees a single run recorded between its rows, without any edit of the rows', async () => {
      const session = await newSession(alice);
      await addRow(alice, session.id, { stepName: 'Slow', systemPrompt: 'WAIT for it' });
      await addRow(alice, session.id, { stepName: 'B', stepType: 'text', userInput: '[[row-3]]' });
      const third = await addRow(alice, session.id, { stepName: 'C', stepType: 'text', userInput: 'three' });
      const all = await alice.post(`/api/master-mode/execute-all/${session.id}`);
      await expect.poll(() => model.waiting()).toBe(true);
      expect((await alice.post(`/api/master-mode/execute/${third.id}`)).statusCode).toBe(200);
      model.release();
      await executeAllEnded(callOf(alice), session.id, all.json().runAllId);
      expect((await sessionOf(alice, session.id)).steps.map((s) => s.result)).toEqual([
        'answered after the wait',
        'three',
        'three',
      ]);
    });

    it('reads as much per row over 200 rows as over 10: what it read is carried from row to row', async () => {
      const readStream = vi.spyOn(t.store, 'readStream');
      const rows = vi.spyOn(t.app.masterSessions, 'rows');
      /** The events of the session's stream and the rows of the session read by an Execute All, per row. */
      async function readPerRow(count: number) {
        const session = await newSession(alice);
        for (let i = 0; i < count; i++)
          await addRow(alice, session.id, { stepName: `R${i}`, stepType: 'text', userInput: `${i}` });
        readStream.mockClear();
        rows.mockClear();
        expect((await executeAllToTheEnd(callOf(alice), session.id)).outcome).toBe('completed');
        const streams = readStream.mock.calls.map(([streamId]) => streamId);
        const events = (await Promise.all(readStream.mock.results.map((result) => result.value)))
          .filter((_, i) => streams[i] === `master-${session.id}`)
          .reduce((sum, read) => sum + read.events.length, 0);
        const rowsRead = (await Promise.all(rows.mock.results.map((result) => result.value)))
          .filter((_, i) => rows.mock.calls[i]![0] === session.id)
          .reduce((sum, read) => sum + read.length, 0);
        return { events: events / count, rows: rowsRead / count };
      }
      try {
        const short = await readPerRow(10);
        const long = await readPerRow(200);
        // Read again each row, the stream's events and the rows would grow with the rows run: 20 times as
        // many per row over 200 rows as over 10. Carried, they are read once or twice in all.
        expect(long.events).toBeLessThanOrEqual(short.events);
        expect(long.rows).toBeLessThanOrEqual(short.rows);
        expect(long.rows).toBeGreaterThan(0);
      } finally {
        readStream.mockRestore();
        rows.mockRestore();
      }
    }, 120_000);
  });

  describe('the free allowance', () => {
    it('counts successful ai rows like flow step runs and refuses them past it; other rows run on', async () => {
      const carol = as(t.app, (await signUp(t.app, 'Carol')).cookie);
      const session = await newSession(carol);
      const ai = await addRow(carol, session.id, { stepName: 'Ask', systemPrompt: 'Say hi' });
      const text = await addRow(carol, session.id, { stepName: 'Note', stepType: 'text', userInput: 'free' });
      for (let i = 0; i < 5; i++)
        expect((await carol.post(`/api/master-mode/execute/${ai.id}`)).statusCode).toBe(200);
      const { flow, steps } = await createFlow(carol, 'One', [{ name: 'Only', systemPrompt: 'Hello' }]);
      const execution = (await carol.post(`/api/flows/${flow.id}/execute`)).json();
      expect(
        (await carol.post(`/api/executions/${execution.id}/steps/${steps[0].id}/execute`, {})).statusCode,
      ).toBe(200);
      expect((await carol.get('/api/user/usage')).json()).toEqual({ remainingSteps: 0, usedSteps: 6 });

      const calls = model.calls.length;
      const refused = await carol.post(`/api/master-mode/execute/${ai.id}`);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().message).toMatch(/6 steps/);
      expect(model.calls.length).toBe(calls);
      expect((await carol.post(`/api/master-mode/execute/${text.id}`)).statusCode).toBe(200);
      const runs = (await carol.get(`/api/master-mode/session/${session.id}/runs`)).json();
      expect(runs).toHaveLength(6);
    });
  });

  it('rebuilding the read models restores the runs and the usage they spent', async () => {
    const before = await t.db.sql`SELECT * FROM master_mode_runs ORDER BY id`;
    const usage = await t.db.sql`SELECT * FROM user_usage ORDER BY id`;
    expect(before.length).toBeGreaterThan(10);
    await rebuildProjections(t.db.sql, t.store, 7);
    expect(await t.db.sql`SELECT * FROM master_mode_runs ORDER BY id`).toEqual(before);
    expect(await t.db.sql`SELECT * FROM user_usage ORDER BY id`).toEqual(usage);
  });
});
