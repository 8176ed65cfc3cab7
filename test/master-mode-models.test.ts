import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MasterSessionWithSteps, MasterStep } from '../src/domain/master-mode/master-session';
import { MODEL_ID_MESSAGE } from '../src/domain/model-choice';
import { rebuildProjections } from '../src/projections/rebuild';
import { callOf, executeAllToTheEnd } from './support/execute-all';
import {
  promptOf as anthropicPrompt,
  type FakeAnthropic,
  startFakeAnthropic,
} from './support/fake-anthropic';
import { type FakeOpenAI, startFakeOpenAI } from './support/fake-openai';
import { as, type Client, createFlow, createTestApp, signUp, type TestApp } from './support/test-app';

/**
 * The model a row or a step names answers in master mode and in chat too, against local fakes of the
 * providers' APIs: an ai row runs on the model it names, on the default when it names none or one the server
 * does not offer; a session made from a flow keeps its steps' models; chat (which runs the flow's steps) is
 * answered by the model its step names.
 */

let openai: FakeOpenAI;
let anthropic: FakeAnthropic;
let t: TestApp;
let lan: Client;

beforeAll(async () => {
  openai = await startFakeOpenAI({ respond: () => ({ text: 'OpenAI wrote this' }) });
  anthropic = await startFakeAnthropic({ respond: () => ({ text: 'Anthropic wrote this' }) });
  t = await createTestApp({
    openaiBaseUrl: openai.url,
    openaiApiKey: 'sk-test',
    anthropicApiKey: 'anthropic-test',
    anthropicBaseUrl: anthropic.url,
    models: ['openai:gpt-4.1-mini', 'anthropic:claude-sonnet-5'],
    defaultModel: 'openai:gpt-4.1-mini',
    freeStepAllowance: 100,
  });
  lan = as(t.app, (await signUp(t.app, 'Lan')).cookie);
});
afterAll(async () => {
  await t?.close();
  await openai?.close();
  await anthropic?.close();
});

const chatCalls = () => openai.requests.filter((r) => r.path.endsWith('/chat/completions'));
const anthropicCalls = () => anthropic.requests.filter((r) => r.method === 'POST');

async function newSession(body: Record<string, unknown> = { name: 'Models' }) {
  const response = await lan.post('/api/master-mode/standalone', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as MasterSessionWithSteps;
}

async function addRow(sessionId: string, fields: Record<string, unknown>) {
  const response = await lan.post('/api/master-mode/steps', { sessionId, stepName: 'Row', ...fields });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as MasterStep;
}

/** Runs the row and answers its new result and the model its run recorded. */
async function run(row: MasterStep) {
  const response = await lan.post(`/api/master-mode/execute/${row.id}`);
  expect(response.statusCode, response.body).toBe(200);
  const [latest] = (await lan.get(`/api/master-mode/session/${row.sessionId}/runs`)).json();
  expect(latest.stepId).toBe(row.id);
  return { result: (response.json() as MasterStep).result, recorded: latest.model as string | null };
}

describe("a master mode ai row's model", () => {
  it('answers the row on the model it names, and on the default when it names none', async () => {
    const session = await newSession();
    const claude = await addRow(session.id, { systemPrompt: 'Say hi.', model: 'anthropic:claude-sonnet-5' });
    expect(claude.model).toBe('anthropic:claude-sonnet-5');
    const plain = await addRow(session.id, { systemPrompt: 'Say hello.' });
    expect(plain.model).toBeNull();

    const [anthropicBefore, openaiBefore] = [anthropicCalls().length, chatCalls().length];
    expect(await run(claude)).toEqual({ result: 'Anthropic wrote this', recorded: 'claude-sonnet-5' });
    const [call, ...more] = anthropicCalls().slice(anthropicBefore);
    expect(more).toEqual([]);
    expect(call!.body.model).toBe('claude-sonnet-5');
    expect(anthropicPrompt(call!.body)).toContain('Say hi.');
    expect(chatCalls().length).toBe(openaiBefore);

    expect(await run(plain)).toEqual({ result: 'OpenAI wrote this', recorded: 'gpt-4.1-mini' });
    expect(
      chatCalls()
        .slice(openaiBefore)
        .map((c) => c.body.model),
    ).toEqual(['gpt-4.1-mini']);
    expect(anthropicCalls().length).toBe(anthropicBefore + 1);
  });

  it("logs each row run's provider, tokens and time to the first text; a rebuild gives the same", async () => {
    openai.respondWith(() => ({ text: 'OpenAI counted this', usage: { input: 11, output: 3 } }));
    anthropic.respondWith(() => ({ text: 'Anthropic counted this', usage: { input: 13, output: 5 } }));
    try {
      const session = await newSession();
      const claude = await addRow(session.id, { systemPrompt: 'Hi.', model: 'anthropic:claude-sonnet-5' });
      const plain = await addRow(session.id, { systemPrompt: 'Hello.' });
      await run(claude);
      await run(plain);
      const listed = async () => (await lan.get(`/api/master-mode/session/${session.id}/runs`)).json();
      const runs = await listed();
      const of = (row: MasterStep) => runs.find((r: { stepId: string }) => r.stepId === row.id);
      expect(of(claude)).toMatchObject({ provider: 'anthropic', inputTokens: 13, outputTokens: 5 });
      expect(of(plain)).toMatchObject({ provider: 'openai', inputTokens: 11, outputTokens: 3 });
      for (const r of runs) expect(r.firstTokenMs).toBeGreaterThanOrEqual(0);
      await rebuildProjections(t.db.sql, t.store);
      expect(await listed()).toEqual(runs);
    } finally {
      openai.respondWith(() => ({ text: 'OpenAI wrote this' }));
      anthropic.respondWith(() => ({ text: 'Anthropic wrote this' }));
    }
  });

  it('runs a row naming a model the server does not offer on the default', async () => {
    const session = await newSession();
    const row = await addRow(session.id, { systemPrompt: 'Say hi.', model: 'openai:llama3.2' });
    expect(row.model).toBe('openai:llama3.2');
    const [anthropicBefore, openaiBefore] = [anthropicCalls().length, chatCalls().length];
    expect(await run(row)).toEqual({ result: 'OpenAI wrote this', recorded: 'gpt-4.1-mini' });
    expect(
      chatCalls()
        .slice(openaiBefore)
        .map((c) => c.body.model),
    ).toEqual(['gpt-4.1-mini']);
    expect(anthropicCalls().length).toBe(anthropicBefore);
  });

  it("is changed on the row, and back to the server's default with null; Execute All runs each on its own", async () => {
    const session = await newSession();
    const first = await addRow(session.id, { systemPrompt: 'One.' });
    const second = await addRow(session.id, { systemPrompt: 'Two.', model: 'anthropic:claude-sonnet-5' });
    const changed = await lan.put(`/api/master-mode/steps/${first.id}`, {
      model: 'anthropic:claude-sonnet-5',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ model: 'anthropic:claude-sonnet-5', systemPrompt: 'One.' });
    const back = await lan.put(`/api/master-mode/steps/${second.id}`, { model: null });
    expect(back.json().model).toBeNull();
    // Changing another field leaves the model as it is.
    const renamed = await lan.put(`/api/master-mode/steps/${first.id}`, { stepName: 'Một' });
    expect(renamed.json().model).toBe('anthropic:claude-sonnet-5');

    const [anthropicBefore, openaiBefore] = [anthropicCalls().length, chatCalls().length];
    const ended = await executeAllToTheEnd(callOf(lan), session.id);
    expect(ended.outcome).toBe('completed');
    expect(
      anthropicCalls()
        .slice(anthropicBefore)
        .map((c) => c.body.model),
    ).toEqual(['claude-sonnet-5']);
    expect(
      chatCalls()
        .slice(openaiBefore)
        .map((c) => c.body.model),
    ).toEqual(['gpt-4.1-mini']);
    const runs = (await lan.get(`/api/master-mode/session/${session.id}/runs`)).json();
    expect(runs.map((r: { stepId: string; model: string }) => [r.stepId, r.model]).reverse()).toEqual([
      [first.id, 'claude-sonnet-5'],
      [second.id, 'gpt-4.1-mini'],
    ]);
  });

  it('refuses a model that is not provider:name with 400 saying so, and keeps the row as it was', async () => {
    const session = await newSession();
    for (const model of ['gpt-4.1-mini', 'openai:', 'OpenAI:gpt', `openai:${'x'.repeat(200)}`, 42]) {
      const added = await lan.post('/api/master-mode/steps', { sessionId: session.id, stepName: 'R', model });
      expect(added.statusCode, String(model)).toBe(400);
    }
    const refused = await lan.post('/api/master-mode/steps', {
      sessionId: session.id,
      stepName: 'R',
      model: 'gpt 4',
    });
    expect(refused.json().detail).toContain(MODEL_ID_MESSAGE);
    const row = await addRow(session.id, { model: 'openai:gpt-4.1-mini' });
    const changed = await lan.put(`/api/master-mode/steps/${row.id}`, { model: 'not a model' });
    expect(changed.statusCode).toBe(400);
    expect(changed.json().detail).toContain(MODEL_ID_MESSAGE);
    const [kept] = (await lan.get(`/api/master-mode/session/${session.id}`)).json().steps;
    expect(kept.model).toBe('openai:gpt-4.1-mini');
  });

  it("keeps the flow's steps' models in a session made from the flow, or from its workflow JSON", async () => {
    const { flow } = await createFlow(lan, 'Hai model', [
      { name: 'Một', systemPrompt: 'First.', model: 'anthropic:claude-sonnet-5' },
      { name: 'Hai', systemPrompt: 'Second after [[step-1]].' },
    ]);
    const fromFlow = await newSession({ name: 'Of the flow', flowId: flow.id });
    expect(fromFlow.steps.map((row) => row.model)).toEqual(['anthropic:claude-sonnet-5', null]);

    const imported = await lan.post('/api/master-mode/import', {
      name: 'Nhập',
      description: 'From another server',
      steps: [
        { order: 1, name: 'Một', systemPrompt: 'First.', outputMode: 'single', model: 'ollama:qwen3' },
        { order: 2, name: 'Hai', systemPrompt: 'Second.', outputMode: 'single' },
      ],
    });
    expect(imported.statusCode, imported.body).toBe(201);
    const rows = (imported.json() as MasterSessionWithSteps).steps;
    expect(rows.map((row) => row.model)).toEqual(['ollama:qwen3', null]);

    const [anthropicBefore, openaiBefore] = [anthropicCalls().length, chatCalls().length];
    expect((await run(fromFlow.steps[0]!)).recorded).toBe('claude-sonnet-5');
    expect(
      anthropicCalls()
        .slice(anthropicBefore)
        .map((c) => c.body.model),
    ).toEqual(['claude-sonnet-5']);
    // Not offered here: the default answers.
    expect((await run(rows[0]!)).recorded).toBe('gpt-4.1-mini');
    expect(
      chatCalls()
        .slice(openaiBefore)
        .map((c) => c.body.model),
    ).toEqual(['gpt-4.1-mini']);
  });
});

describe('chat through a flow', () => {
  it("is answered by the model the flow's step names", async () => {
    // Chat sends each message as the input of the flow's next step, on the flow's latest execution.
    const { flow, steps } = await createFlow(lan, 'Trò chuyện', [
      { name: 'Trả lời', systemPrompt: 'Answer the user.', model: 'anthropic:claude-sonnet-5' },
      { name: 'Tóm tắt', systemPrompt: 'Sum up [[step-1]].' },
    ]);
    const execution = (await lan.post(`/api/flows/${flow.id}/execute`)).json();
    const [anthropicBefore, openaiBefore] = [anthropicCalls().length, chatCalls().length];
    const reply = await lan.post(`/api/executions/${execution.id}/steps/${steps[0].id}/execute`, {
      userInput: 'Xin chào, trà nào ngon?',
    });
    expect(reply.statusCode, reply.body).toBe(200);
    expect(reply.json().results[0].result).toBe('Anthropic wrote this');
    const [call, ...more] = anthropicCalls().slice(anthropicBefore);
    expect(more).toEqual([]);
    expect(call!.body.model).toBe('claude-sonnet-5');
    expect(anthropicPrompt(call!.body)).toContain('Xin chào, trà nào ngon?');
    expect(chatCalls().length).toBe(openaiBefore);

    await lan.put(`/api/step-results/${reply.json().results[0].id}`, { approved: true });
    const next = await lan.post(`/api/executions/${execution.id}/steps/${steps[1].id}/execute`, {
      userInput: 'Tóm tắt giúp tôi',
    });
    expect(next.statusCode, next.body).toBe(200);
    expect(
      chatCalls()
        .slice(openaiBefore)
        .map((c) => c.body.model),
    ).toEqual(['gpt-4.1-mini']);
  });
});
