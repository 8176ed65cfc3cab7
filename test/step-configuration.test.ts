import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, type Client, createFlow, createTestApp, signUp, type TestApp } from './support/test-app';

describe('step configuration rule on the server', () => {
  let t: TestApp;
  let lan: Client;

  beforeAll(async () => {
    t = await createTestApp();
    lan = as(t.app, (await signUp(t.app, 'Lan')).cookie);
  });
  afterAll(() => t.close());

  it('keeps choices only for multiple_choice and loop settings only for loop, whatever the body says', async () => {
    const { steps } = await createFlow(lan, 'Quy tắc', [
      { name: 'Ý tưởng', systemPrompt: 'Ideas.' },
      { name: 'Chọn', systemPrompt: 'Pick one.' },
    ]);
    const [first, step] = steps;

    const choice = await lan.put(`/api/steps/${step.id}`, {
      outputMode: 'multiple_choice',
      choices: ['Ngắn', 'Dài'],
      loopTargetStepId: first.id,
      maxLoopIterations: 7,
    });
    expect(choice.statusCode).toBe(200);
    expect(choice.json()).toMatchObject({
      outputMode: 'multiple_choice',
      choices: ['Ngắn', 'Dài'],
      loopTargetStepId: null,
      maxLoopIterations: 1,
    });

    // A loop repeats the step itself, whichever target is sent; its choices go.
    const loop = await lan.put(`/api/steps/${step.id}`, {
      outputMode: 'loop',
      loopTargetStepId: first.id,
      maxLoopIterations: 4,
    });
    expect(loop.json()).toMatchObject({ choices: [], loopTargetStepId: step.id, maxLoopIterations: 4 });

    const single = await lan.put(`/api/steps/${step.id}`, { outputMode: 'single', choices: ['A'] });
    expect(single.json()).toMatchObject({ choices: [], loopTargetStepId: null, maxLoopIterations: 1 });

    // A loop created as such is locked to itself too.
    const created = await lan.post('/api/steps', {
      flowId: step.flowId,
      name: 'Lặp',
      order: 3,
      outputMode: 'loop',
      maxLoopIterations: 3,
      choices: ['x'],
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      loopTargetStepId: created.json().id,
      maxLoopIterations: 3,
      choices: [],
    });
  });

  it('refuses a loop count outside 1..100', async () => {
    const { steps } = await createFlow(lan, 'Giới hạn', [{ name: 'Lặp', systemPrompt: 'Loop.' }]);
    for (const maxLoopIterations of [0, 101, 2.5]) {
      const answer = await lan.put(`/api/steps/${steps[0].id}`, { outputMode: 'loop', maxLoopIterations });
      expect(answer.statusCode).toBe(400);
    }
  });

  it('keeps the model a step names, as provider:name, and clears it with null; refuses anything else', async () => {
    const { steps } = await createFlow(lan, 'Model', [{ name: 'Nháp', systemPrompt: 'Draft.' }]);
    const [step] = steps;
    expect(step.model ?? null).toBeNull();
    const named = await lan.put(`/api/steps/${step.id}`, { model: 'ollama:qwen3:8b' });
    expect(named.statusCode, named.body).toBe(200);
    expect(named.json().model).toBe('ollama:qwen3:8b');
    expect((await lan.get(`/api/flows/${step.flowId}/steps`)).json()[0].model).toBe('ollama:qwen3:8b');
    for (const model of ['gpt-4', 'OpenAI:gpt', 'openai:', 'openai:a b', `openai:${'x'.repeat(300)}`, 42]) {
      const refused = await lan.put(`/api/steps/${step.id}`, { model });
      expect(refused.statusCode, JSON.stringify(model)).toBe(400);
    }
    const cleared = await lan.put(`/api/steps/${step.id}`, { model: null });
    expect(cleared.json().model ?? null).toBeNull();
  });
});
