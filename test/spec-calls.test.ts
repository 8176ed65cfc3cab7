import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callOf, executeAllToTheEnd } from './support/execute-all';
import { as, type Client, createTestApp, signUp, type TestApp } from './support/test-app';

/**
 * Every API call the web app makes, sent with exactly the payload the web app sends (and no body where it sends
 * none), answers success with the shape the screens read. The detailed behaviour of each lives in its own file.
 */
describe('the web app calls with their named payloads', () => {
  let t: TestApp;
  let client: Client;
  let cookie: string;

  const patch = (url: string, payload: unknown) =>
    t.app.inject({ method: 'PATCH', url, headers: { cookie }, payload: payload as object });

  beforeAll(async () => {
    t = await createTestApp();
    cookie = (await signUp(t.app, 'Lan')).cookie;
    client = as(t.app, cookie);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('answers the user as id, email, firstName and lastName', async () => {
    const response = await client.get('/api/auth/user');
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json()).sort()).toEqual(['email', 'firstName', 'id', 'lastName']);
    expect(response.json().firstName).toBe('Lan');
  });

  it('creates, lists, updates, exports and deletes a flow with the named payloads', async () => {
    const created = await client.post('/api/flows', {
      name: 'Blog',
      description: 'Viết blog',
      status: 'draft',
    });
    expect(created.statusCode).toBe(201);
    const flow = created.json();
    expect(flow).toMatchObject({ name: 'Blog', description: 'Viết blog', status: 'draft' });

    const listed = (await client.get('/api/flows')).json();
    expect(listed.find((f: { id: string }) => f.id === flow.id)).toMatchObject({
      id: flow.id,
      name: 'Blog',
      description: 'Viết blog',
      stepCount: 0,
      status: 'draft',
    });

    const updated = await client.put(`/api/flows/${flow.id}`, {
      name: 'Blog 2',
      description: 'Viết blog hay',
      status: 'active',
    });
    expect(updated.statusCode).toBe(200);
    expect((await client.get('/api/flows')).json()[0]).toMatchObject({ name: 'Blog 2', status: 'active' });

    const exported = await client.get(`/api/flows/${flow.id}/export`);
    expect(exported.statusCode).toBe(200);
    expect(exported.json().workflow).toMatchObject({ name: 'Blog 2', steps: [] });

    expect((await client.delete(`/api/flows/${flow.id}`)).statusCode).toBeLessThan(300);
    expect((await client.get('/api/flows')).json()).toEqual([]);
  });

  it('adds a step with the add-step payload, updates all its settings or only its prompt, and deletes it', async () => {
    const flow = (
      await client.post('/api/flows', { name: 'Steps', description: 'd', status: 'draft' })
    ).json();
    const added = await client.post('/api/steps', {
      flowId: flow.id,
      name: 'New Step 1',
      order: 1,
      systemPrompt: 'Nhập system prompt cho step này.',
      outputMode: 'single',
      inputSources: [],
      choices: [],
      loopTargetStepId: null,
      maxLoopIterations: 1,
      currentLoopIteration: 0,
      requiresUserInput: false,
    });
    expect(added.statusCode).toBe(201);
    const step = added.json();
    expect(step.id).toEqual(expect.any(String));

    const full = await client.put(`/api/steps/${step.id}`, {
      systemPrompt: 'Chọn một hướng',
      outputMode: 'multiple_choice',
      inputSources: [],
      choices: ['A', 'B'],
      loopTargetStepId: null,
      maxLoopIterations: 1,
      requiresUserInput: true,
    });
    expect(full.statusCode).toBe(200);
    expect(full.json()).toMatchObject({
      outputMode: 'multiple_choice',
      choices: ['A', 'B'],
      requiresUserInput: true,
    });

    const promptOnly = await client.put(`/api/steps/${step.id}`, { systemPrompt: 'Chỉ đổi prompt' });
    expect(promptOnly.statusCode).toBe(200);
    expect(promptOnly.json()).toMatchObject({ systemPrompt: 'Chỉ đổi prompt', choices: ['A', 'B'] });

    const steps = (await client.get(`/api/flows/${flow.id}/steps`)).json();
    expect(steps.map((s: { name: string }) => s.name)).toEqual(['New Step 1']);
    expect((await client.delete(`/api/steps/${step.id}`)).statusCode).toBeLessThan(300);
    expect((await client.get(`/api/flows/${flow.id}/steps`)).json()).toEqual([]);
  });

  it('runs, edits, deletes, stops and resets through the execution calls', async () => {
    const flow = (await client.post('/api/flows', { name: 'Run', description: 'd', status: 'draft' })).json();
    const step = (
      await client.post('/api/steps', { flowId: flow.id, name: 'Ý tưởng', order: 1, systemPrompt: 'Ý tưởng' })
    ).json();

    const started = await client.post(`/api/flows/${flow.id}/execute`);
    expect(started.statusCode).toBeLessThan(300);
    const executionId = started.json().id;
    expect(executionId).toEqual(expect.any(String));

    const execution = (await client.get(`/api/executions/${executionId}`)).json();
    expect(execution).toMatchObject({ id: executionId, currentStep: 1, results: [] });
    expect(execution.executionCache).toHaveLength(1);

    const run = await client.post(`/api/executions/${executionId}/steps/${step.id}/execute`, {
      userInput: '',
    });
    expect(run.statusCode).toBe(200);
    const result = (await client.get(`/api/executions/${executionId}`)).json().results[0];

    const edited = await client.put(`/api/step-results/${result.id}`, { result: 'Sửa lại', label: 'step_1' });
    expect(edited.statusCode).toBe(200);
    expect((await client.get(`/api/executions/${executionId}`)).json().results[0]).toMatchObject({
      result: 'Sửa lại',
      label: 'step_1',
    });

    expect((await client.delete(`/api/step-results/${result.id}`)).statusCode).toBeLessThan(300);
    expect((await client.post(`/api/executions/${executionId}/stop`)).statusCode).toBeLessThan(300);
    expect((await client.get(`/api/executions/${executionId}`)).json().status).toBe('stopped');
    expect((await client.post(`/api/executions/${executionId}/reset`, {})).statusCode).toBeLessThan(300);
    expect((await client.get(`/api/executions/${executionId}`)).json()).toMatchObject({
      status: 'running',
      currentStep: 1,
    });

    const logs = await client.get(`/api/flows/${flow.id}/logs`);
    expect(logs.statusCode).toBe(200);
    expect(logs.json()).toHaveLength(1);
    expect((await client.delete(`/api/flows/${flow.id}/logs`)).statusCode).toBeLessThan(300);
    expect((await client.get(`/api/flows/${flow.id}/logs`)).json()).toEqual([]);

    expect((await client.post(`/api/flows/${flow.id}/suggestions`)).statusCode).toBeLessThan(300);
    expect((await client.get(`/api/flows/${flow.id}/suggestions`)).json()).toHaveLength(1);
    expect((await client.delete(`/api/flows/${flow.id}/suggestions`)).statusCode).toBeLessThan(300);
    expect((await client.get(`/api/flows/${flow.id}/suggestions`)).json()).toEqual([]);

    expect((await client.get(`/api/flows/${flow.id}/context`)).statusCode).toBe(200);
    const createdContext = await client.post(`/api/flows/${flow.id}/context`, {
      userNotes: 'Giọng trẻ trung',
    });
    expect(createdContext.statusCode).toBeLessThan(300);
    const patched = await patch(`/api/flows/${flow.id}/context`, { userNotes: 'Giọng nghiêm túc' });
    expect(patched.statusCode).toBe(200);
    expect((await client.get(`/api/flows/${flow.id}/context`)).json().userNotes).toBe('Giọng nghiêm túc');
  });

  it('generates, creates from JSON, improves and proposes through the AI calls', async () => {
    const generated = await client.post('/api/ai/generate-workflow', {
      description: 'Viết bài blog du lịch về Đà Nẵng',
      includeTemplateHints: true,
    });
    expect(generated.statusCode).toBe(200);
    const { workflow } = generated.json();
    expect(workflow).toMatchObject({ name: expect.any(String), steps: expect.any(Array) });

    const saved = await client.post('/api/ai/create-from-json', { workflowJSON: workflow });
    expect(saved.statusCode).toBe(201);
    expect(saved.json().id).toEqual(expect.any(String));

    const improved = await client.post('/api/ai/flow-creator/improve', { description: 'Viết blog du lịch' });
    expect(improved.statusCode).toBe(200);
    const proposal = await client.post('/api/ai/flow-creator/proposal', {
      conversationHistory: 'User: Viết blog du lịch\n\nUser: OK',
    });
    expect(proposal.statusCode).toBe(200);
  });

  it('creates with flowId and executionId sent empty, lists, loads and deletes a saved session', async () => {
    const created = await client.post('/api/user-sessions', {
      flowId: '',
      executionId: '',
      sessionName: 'Tuần này',
      sessionData: { description: 'Ghi chú' },
    });
    expect(created.statusCode).toBe(201);
    const session = created.json();
    expect(session).toMatchObject({ sessionName: 'Tuần này', sessionData: { description: 'Ghi chú' } });
    expect((await client.get('/api/user-sessions')).json().map((s: { id: string }) => s.id)).toContain(
      session.id,
    );
    expect((await client.post(`/api/user-sessions/${session.id}/load`)).statusCode).toBe(200);
    expect((await client.delete(`/api/user-sessions/${session.id}`)).statusCode).toBeLessThan(300);
  });

  it('lists, generates, implements and gives feedback on recommendations', async () => {
    for (const path of ['/api/recommendations', '/api/templates', '/api/patterns']) {
      const response = await client.get(path);
      expect(response.statusCode, path).toBe(200);
      expect(Array.isArray(response.json()), path).toBe(true);
    }
    const generated = await client.post('/api/recommendations/generate');
    expect(generated.statusCode).toBeLessThan(300);
    expect(generated.json().count).toEqual(expect.any(Number));
    const [recommendation] = (await client.get('/api/recommendations')).json();
    expect(recommendation).toBeDefined();

    const feedback = await client.post(`/api/recommendations/${recommendation.id}/feedback`, {
      action: 'accepted',
      rating: 4,
      feedback: 'Hữu ích',
    });
    expect(feedback.statusCode).toBeLessThan(300);
    const implemented = await client.post(`/api/recommendations/${recommendation.id}/implement`);
    expect(implemented.statusCode).toBeLessThan(300);
    expect((await client.get('/api/flows')).json().length).toBeGreaterThan(0);
  });

  it('adds with keyName, apiKey and keyType gemini, reads usage, and deletes an own key', async () => {
    const before = (await client.get('/api/user/usage')).json();
    expect(before).toEqual({ remainingSteps: expect.any(Number), usedSteps: expect.any(Number) });
    const added = await client.post('/api/user/api-keys', {
      keyName: 'Cá nhân',
      apiKey: 'AIzaSy-not-a-real-key',
      keyType: 'gemini',
    });
    expect(added.statusCode).toBeLessThan(300);
    const [key] = (await client.get('/api/user/api-keys')).json();
    expect(key).toMatchObject({ keyName: 'Cá nhân', keyType: 'gemini', isActive: true });
    expect(key.apiKey).toBeUndefined();
    expect((await client.get('/api/user/usage')).json().remainingSteps).toBe(-1);
    expect((await client.delete(`/api/user/api-keys/${key.id}`)).statusCode).toBeLessThan(300);
    expect((await client.get('/api/user/api-keys')).json()).toEqual([]);
  });

  it('drives a master mode session through every master mode call, import included', async () => {
    const standalone = await client.post('/api/master-mode/standalone', { name: 'Bảng tính' });
    expect(standalone.statusCode).toBeLessThan(300);
    const sessionId = standalone.json().id;
    expect(sessionId).toEqual(expect.any(String));

    const row = await client.post('/api/master-mode/steps', {
      sessionId,
      order: 1,
      stepName: 'Step 1',
      userInput: 'xin chào',
      result: '',
      systemPrompt: '',
      stepType: 'text',
      isRequired: false,
    });
    expect(row.statusCode).toBeLessThan(300);
    const stepId = row.json().id;
    expect((await client.put(`/api/master-mode/steps/${stepId}`, { userInput: 'chào bạn' })).statusCode).toBe(
      200,
    );
    expect((await client.post(`/api/master-mode/execute/${stepId}`)).statusCode).toBeLessThan(300);
    const session = (await client.get(`/api/master-mode/session/${sessionId}`)).json();
    expect(session.steps[0]).toMatchObject({ id: stepId, result: 'chào bạn' });

    expect((await executeAllToTheEnd(callOf(client), sessionId)).outcome).toBe('completed');
    expect((await client.post(`/api/master-mode/stop/${sessionId}`)).statusCode).toBeLessThan(300);
    expect((await client.post(`/api/master-mode/reset/${sessionId}`)).statusCode).toBeLessThan(300);
    expect((await client.delete(`/api/master-mode/steps/${stepId}`)).statusCode).toBeLessThan(300);

    const imported = await client.post('/api/master-mode/import', {
      name: 'Nhập',
      description: 'd',
      steps: [{ name: 'Một', order: 1, systemPrompt: 'p', outputMode: 'single' }],
    });
    expect(imported.statusCode).toBe(201);
    expect(imported.json().id).toEqual(expect.any(String));
  });
});
