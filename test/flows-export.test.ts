import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, type Client, createFlow, createTestApp, signUp, type TestApp } from './support/test-app';

describe('GET /api/flows/:id/export', () => {
  let t: TestApp;
  let alice: Client;
  let bob: Client;

  beforeAll(async () => {
    t = await createTestApp();
    alice = as(t.app, (await signUp(t.app, 'Alice')).cookie);
    bob = as(t.app, (await signUp(t.app, 'Bob')).cookie);
  });
  afterAll(() => t.close());

  it('answers the Workflow JSON: steps in order, input sources as step-N, choices and loops where they matter', async () => {
    const { flow, steps } = await createFlow(alice, 'Blog về trà', [
      { name: 'Ý tưởng', systemPrompt: 'List ideas about [[topic]]', requiresUserInput: true },
      {
        name: 'Chọn hướng',
        systemPrompt: 'Pick one of [[step-1]]',
        outputMode: 'multiple_choice',
        choices: ['Ngắn', 'Dài'],
      },
    ]);
    const [ideas, pick] = steps;
    const polish = await alice.post('/api/steps', {
      flowId: flow.id,
      order: 3,
      name: 'Trau chuốt',
      systemPrompt: 'Polish [[step-2]]',
      outputMode: 'loop',
      maxLoopIterations: 3,
      inputSources: [ideas.id, pick.id],
    });
    expect(polish.statusCode).toBe(201);
    await alice.post('/api/steps', {
      flowId: flow.id,
      order: 4,
      name: 'Bài viết',
      systemPrompt: 'Write the post',
      outputMode: 'multiple',
      inputSources: [polish.json().id],
    });

    const response = await alice.get(`/api/flows/${flow.id}/export`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      workflow: {
        name: 'Blog về trà',
        description: 'Blog về trà flow',
        steps: [
          {
            name: 'Ý tưởng',
            order: 1,
            systemPrompt: 'List ideas about [[topic]]',
            outputMode: 'single',
            requiresUserInput: true,
            inputSources: [],
          },
          {
            name: 'Chọn hướng',
            order: 2,
            systemPrompt: 'Pick one of [[step-1]]',
            outputMode: 'multiple_choice',
            requiresUserInput: false,
            inputSources: [],
            choices: ['Ngắn', 'Dài'],
          },
          {
            name: 'Trau chuốt',
            order: 3,
            systemPrompt: 'Polish [[step-2]]',
            outputMode: 'loop',
            requiresUserInput: false,
            inputSources: ['step-1', 'step-2'],
            maxLoopIterations: 3,
          },
          {
            name: 'Bài viết',
            order: 4,
            systemPrompt: 'Write the post',
            outputMode: 'multiple',
            requiresUserInput: false,
            inputSources: ['step-3'],
          },
        ],
      },
    });
  });

  it('gives back an equal flow when the export is created again through POST /api/ai/create-from-json', async () => {
    const { flow, steps } = await createFlow(alice, 'Khứ hồi', [
      { name: 'Hỏi', systemPrompt: 'Ask about [[topic]]', requiresUserInput: true },
      {
        name: 'Chọn',
        systemPrompt: 'Pick from [[step-1]]',
        outputMode: 'multiple_choice',
        choices: ['A', 'B'],
      },
    ]);
    const loop = (
      await alice.post('/api/steps', {
        flowId: flow.id,
        order: 3,
        name: 'Lặp',
        systemPrompt: 'Improve [[step-2]]',
        outputMode: 'loop',
        maxLoopIterations: 4,
        inputSources: [steps[1].id, steps[0].id],
      })
    ).json();
    await alice.post('/api/steps', {
      flowId: flow.id,
      order: 4,
      name: 'Nhiều',
      systemPrompt: 'Variants of [[step-3]]',
      outputMode: 'multiple',
      inputSources: [loop.id],
      model: 'openai:gpt-4.1-mini',
    });
    const { workflow } = (await alice.get(`/api/flows/${flow.id}/export`)).json();
    // The step's model travels with it.
    expect(workflow.steps[3].model).toBe('openai:gpt-4.1-mini');
    expect(workflow.steps[0].model).toBeUndefined();

    const created = await alice.post('/api/ai/create-from-json', { workflowJSON: workflow });
    expect(created.statusCode).toBe(201);
    const copy = created.json();
    expect(copy).toMatchObject({ name: flow.name, description: flow.description });
    expect((await alice.get(`/api/flows/${copy.id}/export`)).json()).toEqual({ workflow });

    // Step for step the same, each reference pointing at the copy's own step of the same order.
    type StepRow = { id: string; order: number; inputSources: string[]; loopTargetStepId: string | null };
    const comparable = (rows: StepRow[]) => {
      const orderOf = new Map(rows.map((row) => [row.id, row.order]));
      return rows.map(({ id, flowId: _flow, createdAt: _at, ...row }: StepRow & Record<string, unknown>) => ({
        ...row,
        inputSources: row.inputSources.map((source) => orderOf.get(source)),
        loopTargetStepId: row.loopTargetStepId === null ? null : row.loopTargetStepId === id,
      }));
    };
    const original = (await alice.get(`/api/flows/${flow.id}/steps`)).json();
    const copied = (await alice.get(`/api/flows/${copy.id}/steps`)).json();
    expect(comparable(copied)).toEqual(comparable(original));
    expect(comparable(copied)[2]).toMatchObject({
      inputSources: [2, 1],
      loopTargetStepId: true,
      maxLoopIterations: 4,
    });
  });

  it('exports a flow without steps as an empty step list', async () => {
    const { flow } = await createFlow(alice, 'Trống', []);
    const response = await alice.get(`/api/flows/${flow.id}/export`);
    expect(response.json()).toEqual({ workflow: { name: 'Trống', description: 'Trống flow', steps: [] } });
  });

  it('follows a removed source out of the references', async () => {
    const { flow, steps } = await createFlow(alice, 'Xoá nguồn', [
      { name: 'A', systemPrompt: 'a' },
      { name: 'B', systemPrompt: 'b' },
    ]);
    const c = await alice.post('/api/steps', {
      flowId: flow.id,
      order: 3,
      name: 'C',
      systemPrompt: 'c',
      inputSources: [steps[0].id, steps[1].id],
    });
    expect(c.statusCode).toBe(201);
    expect((await alice.delete(`/api/steps/${steps[0].id}`)).statusCode).toBe(204);
    const exported = (await alice.get(`/api/flows/${flow.id}/export`)).json().workflow;
    expect(
      exported.steps.map((s: { order: number; inputSources: string[] }) => [s.order, s.inputSources]),
    ).toEqual([
      [2, []],
      [3, ['step-2']],
    ]);
  });

  it("answers 404 for another user's flow and for a flow that does not exist", async () => {
    const { flow } = await createFlow(alice, 'Riêng tư', [{ name: 'A', systemPrompt: 'secret prompt' }]);
    const response = await bob.get(`/api/flows/${flow.id}/export`);
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('secret prompt');
    expect((await alice.get(`/api/flows/${crypto.randomUUID()}/export`)).statusCode).toBe(404);
  });

  it('answers 400 with the issues for an id that is not a uuid', async () => {
    const response = await alice.get('/api/flows/not-a-uuid/export');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message: expect.any(String), issues: expect.any(Array) });
  });

  it('answers 401 when signed out', async () => {
    const { flow } = await createFlow(alice, 'Đăng xuất', []);
    expect((await t.app.inject({ method: 'GET', url: `/api/flows/${flow.id}/export` })).statusCode).toBe(401);
  });
});
