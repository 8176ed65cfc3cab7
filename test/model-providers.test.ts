import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildProjections } from '../src/projections/rebuild';
import { type FakeAnthropic, startFakeAnthropic } from './support/fake-anthropic';
import { type FakeOpenAI, promptOf, startFakeOpenAI } from './support/fake-openai';
import { as, type Client, createFlow, createTestApp, signUp, type TestApp } from './support/test-app';

/**
 * Models of several providers through their real SDKs, against local fakes of their APIs: a server with only
 * an OpenAI-compatible address offers that endpoint's models and runs a two-step flow with structured output
 * on it; a step that names another provider's model is answered there; one the server does not offer runs on
 * the default.
 */

let openai: FakeOpenAI;
let anthropic: FakeAnthropic;

beforeAll(async () => {
  openai = await startFakeOpenAI({ models: ['qwen3:8b', 'llama3.2'] });
  anthropic = await startFakeAnthropic();
});
afterAll(async () => {
  await openai?.close();
  await anthropic?.close();
});

const chatCalls = () => openai.requests.filter((r) => r.path.endsWith('/chat/completions'));

describe('a server with only OPENAI_BASE_URL', () => {
  let t: TestApp;
  let lan: Client;
  beforeAll(async () => {
    t = await createTestApp({ openaiBaseUrl: openai.url, freeStepAllowance: 100 });
    lan = as(t.app, (await signUp(t.app, 'Lan')).cookie);
  });
  afterAll(() => t?.close());

  it("offers the endpoint's own models, its first the default, and the offline model", async () => {
    const models = (await lan.get('/api/models')).json();
    expect(models.map((m: { id: string }) => m.id)).toEqual([
      'openai:qwen3:8b',
      'openai:llama3.2',
      'offline:offline',
    ]);
    expect(models[0]).toEqual({
      id: 'openai:qwen3:8b',
      provider: 'openai',
      name: 'qwen3:8b',
      // Whether the endpoint holds an answer to its schema is probed on the first structured request.
      capabilities: { streaming: true, structuredOutput: null },
      source: 'server',
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/models' })).statusCode).toBe(401);
  });

  it('runs a two-step flow with structured output on it: the schema is sent, the answer read', async () => {
    openai.respondWith((body) =>
      body.response_format
        ? {
            text: JSON.stringify([
              { branchName: 'Ngắn', content: 'A short post about tea' },
              { branchName: 'Dài', content: 'A long post about tea' },
            ]),
          }
        : { text: `Polished: ${promptOf(body).slice(0, 60)}` },
    );
    const { flow, steps } = await createFlow(lan, 'Trà', [
      { name: 'Ý tưởng', systemPrompt: 'Two ideas about tea.', outputMode: 'multiple' },
      { name: 'Bản cuối', systemPrompt: 'Polish [[step-1]].' },
    ]);
    const before = chatCalls().length;
    const execution = (await lan.post(`/api/flows/${flow.id}/execute`)).json();
    const first = await lan.post(`/api/executions/${execution.id}/steps/${steps[0].id}/execute`, {
      userInput: 'tea',
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().results.map((r: { label: string }) => r.label)).toEqual(['Ngắn', 'Dài']);
    const [ideas] = chatCalls().slice(before);
    expect(ideas!.body.model).toBe('qwen3:8b');
    expect(ideas!.body.stream).toBe(true);
    expect(ideas!.body.response_format).toMatchObject({ type: 'json_schema' });
    for (const result of first.json().results)
      expect((await lan.put(`/api/step-results/${result.id}`, { approved: true })).statusCode).toBe(200);

    const second = await lan.post(`/api/executions/${execution.id}/steps/${steps[1].id}/execute`, {});
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().results[0].result).toContain('Polished:');
    const polish = chatCalls().at(-1)!;
    expect(polish.body.response_format).toBeUndefined();
    expect(promptOf(polish.body)).toContain('A short post about tea');
  });

  it('imports a flow whose step names a model not offered here: it says so, and the step keeps it', async () => {
    const workflowJSON = {
      name: 'Nhập',
      description: 'From another server',
      steps: [
        {
          order: 1,
          name: 'Một',
          systemPrompt: 'First.',
          outputMode: 'single',
          model: 'anthropic:claude-sonnet-5',
        },
        { order: 2, name: 'Hai', systemPrompt: 'Second.', outputMode: 'single', model: 'openai:llama3.2' },
      ],
    };
    const created = await lan.post('/api/ai/create-from-json', { workflowJSON });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      unavailableModels: [{ order: 1, name: 'Một', model: 'anthropic:claude-sonnet-5' }],
      defaultModel: 'openai:qwen3:8b',
    });
    const steps = (await lan.get(`/api/flows/${created.json().id}/steps`)).json();
    expect(steps.map((step: { model: string }) => step.model)).toEqual([
      'anthropic:claude-sonnet-5',
      'openai:llama3.2',
    ]);
  });

  it('asks again when the endpoint takes the schema and answers prose, and the log says so', async () => {
    let calls = 0;
    openai.respondWith(() =>
      calls++ === 0
        ? { text: 'Here are some ideas: green tea, black tea.' }
        : { text: JSON.stringify([{ branchName: 'Xanh', content: 'Green tea' }]) },
    );
    const { flow, steps } = await createFlow(lan, 'Hỏi lại', [
      { name: 'Ý tưởng', systemPrompt: 'Ideas.', outputMode: 'multiple' },
    ]);
    const execution = (await lan.post(`/api/flows/${flow.id}/execute`)).json();
    const run = await lan.post(`/api/executions/${execution.id}/steps/${steps[0].id}/execute`, {});
    expect(run.statusCode, run.body).toBe(200);
    expect(run.json().results.map((r: { label: string }) => r.label)).toEqual(['Xanh']);
    expect(calls).toBe(2);
    const [log] = (await lan.get(`/api/flows/${flow.id}/logs`)).json();
    expect(log).toMatchObject({ success: true, reasks: 1 });
  });

  it('runs a step that names a model the server does not offer on the default', async () => {
    openai.respondWith(() => ({ text: 'From the default' }));
    const { flow, steps } = await createFlow(lan, 'Khác', [{ name: 'Một', systemPrompt: 'Say hi.' }]);
    expect(
      (await lan.put(`/api/steps/${steps[0].id}`, { model: 'anthropic:claude-sonnet-5' })).statusCode,
    ).toBe(200);
    const execution = (await lan.post(`/api/flows/${flow.id}/execute`)).json();
    const run = await lan.post(`/api/executions/${execution.id}/steps/${steps[0].id}/execute`, {});
    expect(run.statusCode, run.body).toBe(200);
    expect(chatCalls().at(-1)!.body.model).toBe('qwen3:8b');
    expect(anthropic.requests).toHaveLength(0);
  });
});

describe('a server with several providers', () => {
  let t: TestApp;
  let lan: Client;
  beforeAll(async () => {
    t = await createTestApp({
      openaiBaseUrl: openai.url,
      openaiApiKey: 'sk-test',
      anthropicApiKey: 'anthropic-test',
      anthropicBaseUrl: anthropic.url,
      // Nothing listens at port 9 (discard): an address that cannot be reached.
      ollamaBaseUrl: 'http://127.0.0.1:9/v1',
      models: ['openai:gpt-4.1-mini', 'anthropic:claude-sonnet-5', 'ollama:qwen3'],
      defaultModel: 'openai:gpt-4.1-mini',
      freeStepAllowance: 100,
    });
    lan = as(t.app, (await signUp(t.app, 'Lan')).cookie);
  });
  afterAll(() => t?.close());

  it('answers each step on the model it names', async () => {
    const ids = (await lan.get('/api/models')).json().map((m: { id: string }) => m.id);
    expect(ids.slice(0, 2)).toEqual(['openai:gpt-4.1-mini', 'anthropic:claude-sonnet-5']);
    openai.respondWith(() => ({ text: 'OpenAI wrote this' }));
    const { flow, steps } = await createFlow(lan, 'Hai model', [
      { name: 'Một', systemPrompt: 'First.' },
      { name: 'Hai', systemPrompt: 'Second after [[step-1]].' },
    ]);
    await lan.put(`/api/steps/${steps[1].id}`, { model: 'anthropic:claude-sonnet-5' });
    const execution = (await lan.post(`/api/flows/${flow.id}/execute`)).json();
    const one = await lan.post(`/api/executions/${execution.id}/steps/${steps[0].id}/execute`, {});
    expect(one.json().results[0].result).toBe('OpenAI wrote this');
    expect(chatCalls().at(-1)!.body.model).toBe('gpt-4.1-mini');
    expect(chatCalls().at(-1)!.apiKey).toBe('sk-test');
    await lan.put(`/api/step-results/${one.json().results[0].id}`, { approved: true });
    const two = await lan.post(`/api/executions/${execution.id}/steps/${steps[1].id}/execute`, {});
    expect(two.statusCode, two.body).toBe(200);
    const [call] = anthropic.requests.slice(-1);
    expect(call!.body.model).toBe('claude-sonnet-5');
  });

  it('a Stop mid-answer ends the call to either provider, and the step can run again', async () => {
    for (const [model, fake] of [
      ['openai:gpt-4.1-mini', openai],
      ['anthropic:claude-sonnet-5', anthropic],
    ] as const) {
      fake.respondWith(() => ({ text: 'One two three four five six seven eight nine ten', stallAfter: 2 }));
      const { flow, steps } = await createFlow(lan, `Dừng ${model}`, [
        { name: 'Một', systemPrompt: 'Talk.' },
      ]);
      await lan.put(`/api/steps/${steps[0].id}`, { model });
      const execution = (await lan.post(`/api/flows/${flow.id}/execute`)).json();
      const cancelledBefore = fake.cancelled.length;
      const calls = () => fake.requests.filter((request) => request.method === 'POST').length;
      const asked = calls();
      const running = lan.post(`/api/executions/${execution.id}/steps/${steps[0].id}/execute`, {});
      // The provider has the call (and holds it open after its first words): then Stop.
      await expect.poll(calls).toBeGreaterThan(asked);
      expect((await lan.post(`/api/executions/${execution.id}/stop`)).statusCode).toBe(200);
      await fake.untilCancelled(cancelledBefore + 1);
      const answer = await running;
      expect(answer.statusCode, model).toBeGreaterThanOrEqual(400);
      const run = (await lan.get(`/api/executions/${execution.id}`)).json().runs.at(-1);
      expect(run).toMatchObject({ status: 'failed', message: 'Stopped' });
      fake.respondWith(() => ({ text: 'Again' }));
      await lan.post(`/api/executions/${execution.id}/reset`);
      const again = await lan.post(`/api/executions/${execution.id}/steps/${steps[0].id}/execute`, {});
      expect(again.statusCode, again.body).toBe(200);
    }
  });

  it("a provider's refusal of the key, its rate limit and an unknown model each fail the step in words", async () => {
    const { flow, steps } = await createFlow(lan, 'Lỗi', [{ name: 'Một', systemPrompt: 'Talk.' }]);
    const execution = (await lan.post(`/api/flows/${flow.id}/execute`)).json();
    const cases = [
      { reply: { status: 401, message: 'Incorrect API key provided' }, retryable: false, words: /key/i },
      {
        reply: { status: 429, message: 'Rate limit reached' },
        retryable: true,
        words: /rate limit|too many/i,
      },
      {
        reply: { status: 404, message: 'The model does not exist', code: 'model_not_found' },
        retryable: false,
        words: /model/i,
      },
      {
        reply: {
          status: 400,
          message: "This model's maximum context length is 8192 tokens.",
          code: 'context_length_exceeded',
        },
        retryable: false,
        words: /context|too long/i,
      },
      { reply: { text: '', refusal: 'I cannot help with that.' }, retryable: false, words: /refus|declin/i },
      { reply: { status: 503, message: 'The server is overloaded' }, retryable: true, words: /OpenAI/ },
    ];
    for (const { reply, retryable, words } of cases) {
      openai.respondWith(() => reply);
      const run = await lan.post(`/api/executions/${execution.id}/steps/${steps[0].id}/execute`, {});
      expect(run.statusCode).toBeGreaterThanOrEqual(400);
      expect(run.body).not.toMatch(/at .*\.ts:\d+/);
      const failed = (await lan.get(`/api/executions/${execution.id}`)).json().runs.at(-1);
      expect(failed.status).toBe('failed');
      expect(failed.message).toMatch(words);
      // The answer says whether sending it again may pass.
      expect(run.json().retryable ?? false).toBe(retryable);
      expect(run.json().detail).toBe(failed.message);
    }
  });

  it('says so in words when the endpoint cannot be reached, and the step runs again once it can', async () => {
    const { flow, steps } = await createFlow(lan, 'Xa', [{ name: 'Một', systemPrompt: 'Talk.' }]);
    expect((await lan.put(`/api/steps/${steps[0].id}`, { model: 'ollama:qwen3' })).statusCode).toBe(200);
    const execution = (await lan.post(`/api/flows/${flow.id}/execute`)).json();
    const run = await lan.post(`/api/executions/${execution.id}/steps/${steps[0].id}/execute`, {});
    expect(run.statusCode).toBeGreaterThanOrEqual(400);
    expect(run.json().detail).toMatch(/127\.0\.0\.1:9/);
    expect(run.json().retryable).toBe(true);
    expect(run.body).not.toMatch(/at .*\.ts:\d+/);
    openai.respondWith(() => ({ text: 'Back' }));
    expect((await lan.put(`/api/steps/${steps[0].id}`, { model: null })).statusCode).toBe(200);
    const again = await lan.post(`/api/executions/${execution.id}/steps/${steps[0].id}/execute`, {});
    expect(again.statusCode, again.body).toBe(200);
  });

  it('answers a multiple-choice step and a step of several candidates on each provider', async () => {
    const answers = (body: { messages?: unknown; system?: unknown }) => {
      const asked = JSON.stringify(body);
      return asked.includes('Choose exactly one')
        ? { text: JSON.stringify({ choice: 'Trà', reason: 'Ấm' }) }
        : {
            text: JSON.stringify([
              { branchName: 'Một', content: 'A' },
              { branchName: 'Hai', content: 'B' },
            ]),
          };
    };
    openai.respondWith(answers);
    anthropic.respondWith(answers);
    for (const model of ['openai:gpt-4.1-mini', 'anthropic:claude-sonnet-5']) {
      const { flow, steps } = await createFlow(lan, `Chọn ${model}`, [
        { name: 'Ý tưởng', systemPrompt: 'Ideas.', outputMode: 'multiple' },
        {
          name: 'Chọn',
          systemPrompt: 'Pick a drink.',
          outputMode: 'multiple_choice',
          choices: ['Trà', 'Cà phê'],
        },
      ]);
      for (const step of steps)
        expect((await lan.put(`/api/steps/${step.id}`, { model })).statusCode).toBe(200);
      const execution = (await lan.post(`/api/flows/${flow.id}/execute`)).json();
      const ideas = await lan.post(`/api/executions/${execution.id}/steps/${steps[0].id}/execute`, {});
      expect(ideas.statusCode, ideas.body).toBe(200);
      expect(ideas.json().results.map((r: { label: string }) => r.label)).toEqual(['Một', 'Hai']);
      for (const result of ideas.json().results)
        await lan.put(`/api/step-results/${result.id}`, { approved: true });
      const pick = await lan.post(`/api/executions/${execution.id}/steps/${steps[1].id}/execute`, {});
      expect(pick.statusCode, pick.body).toBe(200);
      expect(pick.json().results[0].result).toContain('Trà');
    }
  });

  it("the request log tells each request's provider, tokens and time to the first text; a rebuild the same", async () => {
    openai.respondWith(() => ({ text: 'OpenAI counted this', usage: { input: 11, output: 3 } }));
    anthropic.respondWith(() => ({ text: 'Anthropic counted this', usage: { input: 13, output: 5 } }));
    const { flow, steps } = await createFlow(lan, 'Đếm token', [
      { name: 'Một', systemPrompt: 'First.' },
      { name: 'Hai', systemPrompt: 'Second.' },
      { name: 'Ba', systemPrompt: 'Third.' },
    ]);
    await lan.put(`/api/steps/${steps[1].id}`, { model: 'anthropic:claude-sonnet-5' });
    const execution = (await lan.post(`/api/flows/${flow.id}/execute`)).json();
    const run = (step: { id: string }) =>
      lan.post(`/api/executions/${execution.id}/steps/${step.id}/execute`, {});
    const one = await run(steps[0]);
    expect(one.statusCode, one.body).toBe(200);
    await lan.put(`/api/step-results/${one.json().results[0].id}`, { approved: true });
    const two = await run(steps[1]);
    expect(two.statusCode, two.body).toBe(200);
    await lan.put(`/api/step-results/${two.json().results[0].id}`, { approved: true });
    // A failure after the first words still tells when they came.
    openai.respondWith(() => ({
      text: 'Half of an answer',
      streamError: { message: 'The server had an error', type: 'server_error' },
    }));
    expect((await run(steps[2])).statusCode).toBeGreaterThanOrEqual(400);

    const listed = async () => (await lan.get(`/api/flows/${flow.id}/logs`)).json();
    const logs = await listed();
    expect(logs).toHaveLength(3);
    const byStep = (order: number) => logs.find((log: { stepOrder: number }) => log.stepOrder === order);
    expect(byStep(1)).toMatchObject({
      provider: 'openai',
      model: 'gpt-4.1-mini',
      inputTokens: 11,
      outputTokens: 3,
      success: true,
    });
    expect(byStep(2)).toMatchObject({
      provider: 'anthropic',
      model: 'claude-sonnet-5',
      inputTokens: 13,
      outputTokens: 5,
      success: true,
    });
    expect(byStep(3)).toMatchObject({
      provider: 'openai',
      inputTokens: null,
      outputTokens: null,
      success: false,
    });
    for (const log of logs) expect(log.firstTokenMs).toBeGreaterThanOrEqual(0);

    const rows = () => t.db.sql`SELECT * FROM ai_request_logs WHERE flow_id = ${flow.id} ORDER BY id`;
    const inline = await rows();
    await rebuildProjections(t.db.sql, t.store);
    expect(await rows()).toEqual(inline);
    expect(await listed()).toEqual(logs);
  });
});
