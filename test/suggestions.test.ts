import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SuggestionRecord } from '../src/domain/flow-suggestions';
import { type FakeGemini, promptOf, startFakeGemini } from './support/fake-gemini';
import { as, type Client, createFlow, createTestApp, signUp, type TestApp } from './support/test-app';

/** Runs a step of the flow's execution (started on first use) and answers its results. */
async function runStep(client: Client, flowId: string, stepId: string) {
  const latest = (await client.get(`/api/flows/${flowId}/executions/latest`)).json();
  const execution = latest ?? (await client.post(`/api/flows/${flowId}/execute`)).json();
  const run = await client.post(`/api/executions/${execution.id}/steps/${stepId}/execute`, {});
  expect(run.statusCode).toBe(200);
  return run.json().results as { id: string; result: string }[];
}

const threeSteps = [
  { name: 'Research tea', systemPrompt: 'List five facts about green tea for a beginner audience.' },
  { name: 'Outline', systemPrompt: 'Write an outline for a short article about green tea.' },
  {
    name: 'Headlines',
    systemPrompt: 'Propose headlines for the article outlined here: [[step-2]]',
    outputMode: 'multiple',
  },
];

describe('AI suggestions with the offline model', () => {
  let t: TestApp;
  let alice: Client;
  let bob: Client;

  beforeAll(async () => {
    t = await createTestApp();
    alice = as(t.app, (await signUp(t.app, 'Alice')).cookie);
    bob = as(t.app, (await signUp(t.app, 'Bob')).cookie);
  });
  afterAll(() => t.close());

  it('starts with no suggestions', async () => {
    const { flow } = await createFlow(alice, 'Empty', threeSteps);
    const response = await alice.get(`/api/flows/${flow.id}/suggestions`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
  });

  it('grounds each step suggestion in the flow: prompts, references, approvals, edits and rejected ideas', async () => {
    const { flow, steps } = await createFlow(alice, 'Tea article', threeSteps);
    const [research, outline, headlines] = steps;
    const [first] = await runStep(alice, flow.id, research.id);
    const edited = await alice.put(`/api/step-results/${first!.id}`, {
      result: 'Green tea has less caffeine than coffee.',
    });
    expect(edited.statusCode).toBe(200);
    const [second] = await runStep(alice, flow.id, research.id);
    expect((await alice.delete(`/api/step-results/${second!.id}`)).statusCode).toBe(204);
    await runStep(alice, flow.id, outline.id);
    const alternatives = await runStep(alice, flow.id, headlines.id);
    expect(alternatives.length).toBeGreaterThan(1);

    const response = await alice.post(`/api/flows/${flow.id}/suggestions`);
    expect(response.statusCode).toBe(201);
    const record = response.json() as SuggestionRecord;
    expect(record).toMatchObject({ id: expect.any(String), flowId: flow.id });
    expect(Date.parse(record.createdAt)).not.toBeNaN();
    expect(record.flowStructure).toMatchObject({
      name: 'Tea article',
      steps: threeSteps.map((step, i) => ({
        order: i + 1,
        name: step.name,
        systemPrompt: step.systemPrompt,
      })),
    });

    expect(record.suggestions.map((s) => [s.stepOrder, s.stepName])).toEqual([
      [1, 'Research tea'],
      [2, 'Outline'],
      [3, 'Headlines'],
    ]);
    const [forResearch, forOutline, forHeadlines] = record.suggestions.map((s) => s.suggestion);
    for (const text of [forResearch, forOutline, forHeadlines, record.strategicRecommendation]) {
      expect(text).toContain('[Offline model]');
    }
    // The edit (before and after) and the deleted result of step 1.
    expect(forResearch).toContain('bị sửa 1 lần');
    expect(forResearch).toContain('Green tea has less caffeine than coffee.');
    expect(forResearch).toContain(second!.result.trim().slice(0, 30));
    expect(forResearch).toContain('1 kết quả đã bị loại');
    // Step 2 refers to nothing earlier; step 3 does ([[step-2]]) but none of its alternatives is approved.
    expect(forOutline).toContain('[[step-1]]');
    expect(forOutline).toContain('Research tea');
    expect(forHeadlines).not.toContain('không dùng gì từ các step trước');
    expect(forHeadlines).toContain(`Chưa phương án nào trong ${alternatives.length} phương án được approve`);

    expect(record.strategicRecommendation).toContain('Tea article');
    expect(record.strategicRecommendation).toContain('Research tea → Outline → Headlines');
    expect(record.strategicRecommendation).toContain('1 kết quả bị sửa, 1 rejected idea');
  });

  it('suggests nothing about approvals once an alternative is approved', async () => {
    const { flow, steps } = await createFlow(alice, 'Approved', threeSteps);
    const [alternative] = await runStep(alice, flow.id, steps[2].id);
    await alice.put(`/api/step-results/${alternative!.id}`, { approved: true });
    const record = (await alice.post(`/api/flows/${flow.id}/suggestions`)).json() as SuggestionRecord;
    expect(record.suggestions[2]!.suggestion).not.toContain('approve');
  });

  it('knows a step has run from its results, also once the request logs are cleared', async () => {
    const { flow, steps } = await createFlow(alice, 'Cleared logs', threeSteps.slice(0, 1));
    const url = `/api/flows/${flow.id}/suggestions`;
    const before = (await alice.post(url)).json() as SuggestionRecord;
    expect(before.suggestions[0]!.suggestion).toContain('Step này chưa chạy lần nào');

    await runStep(alice, flow.id, steps[0].id);
    expect((await alice.delete(`/api/flows/${flow.id}/logs`)).statusCode).toBe(204);
    expect((await alice.get(`/api/flows/${flow.id}/logs`)).json()).toEqual([]);
    const after = (await alice.post(url)).json() as SuggestionRecord;
    expect(after.suggestions[0]!.suggestion).not.toContain('Step này chưa chạy lần nào');
    expect(after.suggestions[0]!.suggestion).toContain('1 kết quả của step này không có lỗi');
  });

  it('lists the records newest first, and clears them', async () => {
    const { flow, steps } = await createFlow(alice, 'History', threeSteps.slice(0, 2));
    const url = `/api/flows/${flow.id}/suggestions`;
    const older = (await alice.post(url)).json() as SuggestionRecord;
    await alice.put(`/api/steps/${steps[1].id}`, { systemPrompt: 'Outline the facts of [[step-1]].' });
    const newer = (await alice.post(url)).json() as SuggestionRecord;

    const list = (await alice.get(url)).json() as SuggestionRecord[];
    expect(list.map((r) => r.id)).toEqual([newer.id, older.id]);
    // Each record keeps the steps as they were when it was made.
    expect(list[1]!.flowStructure.steps[1]!.systemPrompt).toBe(threeSteps[1]!.systemPrompt);
    expect(list[0]!.flowStructure.steps[1]!.systemPrompt).toBe('Outline the facts of [[step-1]].');
    expect(older.suggestions[1]!.suggestion).toContain('[[step-1]]');
    expect(newer.suggestions[1]!.suggestion).not.toContain('không dùng gì từ các step trước');

    const cleared = await alice.delete(url);
    expect(cleared.statusCode).toBe(204);
    expect((await alice.get(url)).json()).toEqual([]);
  });

  it("answers 404 for another user's flow and leaves its suggestions alone", async () => {
    const { flow } = await createFlow(alice, 'Private', threeSteps);
    const url = `/api/flows/${flow.id}/suggestions`;
    await alice.post(url);
    for (const response of [await bob.get(url), await bob.post(url), await bob.delete(url)]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ message: 'Không tìm thấy flow' });
    }
    expect((await alice.get(url)).json()).toHaveLength(1);
  });

  it('is not a step run: it counts no usage and works past the free step allowance', async () => {
    const { cookie, user } = await signUp(t.app, 'Carol');
    const carol = as(t.app, cookie);
    const { flow } = await createFlow(carol, 'Allowance', threeSteps);
    const url = `/api/flows/${flow.id}/suggestions`;
    expect((await carol.post(url)).statusCode).toBe(201);
    expect((await carol.get('/api/user/usage')).json()).toMatchObject({ usedSteps: 0 });

    await t.db.sql`
      INSERT INTO user_usage (id, user_id, used_default_key)
      SELECT gen_random_uuid(), ${user.id}, true FROM generate_series(1, 15)`;
    expect((await carol.post(url)).statusCode).toBe(201);
    expect((await carol.get(url)).json()).toHaveLength(2);
    expect((await carol.get('/api/user/usage')).json()).toMatchObject({ usedSteps: 15, remainingSteps: 0 });
  });

  it('refuses bad input with 400 and answers 401 without a session', async () => {
    const { flow } = await createFlow(alice, 'Input', threeSteps);
    const url = `/api/flows/${flow.id}/suggestions`;
    for (const response of [
      await alice.post(url, { focus: 'prompts' }),
      await alice.get('/api/flows/not-a-uuid/suggestions'),
      await alice.delete('/api/flows/not-a-uuid/suggestions'),
    ]) {
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: expect.any(String), issues: expect.any(Array) });
    }
    expect((await alice.get(url)).json()).toEqual([]);
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      expect((await t.app.inject({ method, url })).statusCode).toBe(401);
    }
  });
});

describe('AI suggestions through Gemini', () => {
  let t: TestApp;
  let fake: FakeGemini;
  let alice: Client;

  /** Suggestion requests ask for JSON with a strategic recommendation; step runs do not. */
  const isSuggestionRequest = (body: { generationConfig?: Record<string, unknown> }) =>
    JSON.stringify(body.generationConfig ?? {}).includes('strategicRecommendation');

  beforeAll(async () => {
    fake = await startFakeGemini();
    t = await createTestApp({ geminiApiKey: 'server-key', geminiBaseUrl: fake.url, modelCallsPerMinute: 30 });
    alice = as(t.app, (await signUp(t.app, 'Alice')).cookie);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  afterEach(() => {
    fake.requests.length = 0;
  });

  it("sends the model the flow's prompts and history, and stores its validated answer", async () => {
    const { flow, steps } = await createFlow(alice, 'Gemini flow', threeSteps.slice(0, 2));
    fake.respondWith((body) =>
      isSuggestionRequest(body)
        ? {
            text: JSON.stringify({
              suggestions: [
                { stepOrder: 2, stepName: 'whatever', suggestion: 'Refer to [[step-1]].' },
                { stepOrder: 1, stepName: 'Research tea', suggestion: 'Name the sources.' },
                { stepOrder: 9, stepName: 'No such step', suggestion: 'Dropped.' },
              ],
              strategicRecommendation: '## Plan\nConnect the steps.',
            }),
          }
        : { text: 'Fact: sencha is steamed.' },
    );
    await runStep(alice, flow.id, steps[0].id);

    const response = await alice.post(`/api/flows/${flow.id}/suggestions`);
    expect(response.statusCode).toBe(201);
    const call = fake.requests.find((r) => isSuggestionRequest(r.body));
    expect(call?.apiKey).toBe('server-key');
    const prompt = promptOf(call!.body);
    for (const step of threeSteps.slice(0, 2)) {
      expect(prompt).toContain(step.systemPrompt);
      expect(prompt).toContain(step.name);
    }
    expect(prompt).toContain('Fact: sencha is steamed.');
    expect(call!.body.generationConfig).toMatchObject({ responseMimeType: 'application/json' });

    const record = response.json() as SuggestionRecord;
    expect(record.suggestions).toEqual([
      { stepOrder: 1, stepName: 'Research tea', suggestion: 'Name the sources.' },
      { stepOrder: 2, stepName: 'Outline', suggestion: 'Refer to [[step-1]].' },
    ]);
    expect(record.strategicRecommendation).toBe('## Plan\nConnect the steps.');
    expect((await alice.get(`/api/flows/${flow.id}/suggestions`)).json()).toEqual([record]);
  });

  it('answers 502 with the reason when the model fails or answers in the wrong shape, storing nothing', async () => {
    const { flow } = await createFlow(alice, 'Failing', threeSteps);
    const url = `/api/flows/${flow.id}/suggestions`;

    fake.respondWith(() => ({ text: JSON.stringify({ suggestions: 'not a list' }) }));
    const wrongShape = await alice.post(url);
    expect(wrongShape.statusCode).toBe(502);
    expect(wrongShape.json().message).toContain('wrong shape');

    fake.respondWith(() => ({ status: 503, message: 'The model is overloaded.' }));
    const unavailable = await alice.post(url);
    expect(unavailable.statusCode).toBe(502);
    expect(unavailable.json()).toMatchObject({ message: expect.stringContaining('503'), retryable: true });

    expect((await alice.get(url)).json()).toEqual([]);
  });

  it('limits generation per user like step runs', async () => {
    const bob = as(t.app, (await signUp(t.app, 'Bob')).cookie);
    const { flow } = await createFlow(bob, 'Limited', threeSteps.slice(0, 1));
    fake.respondWith(() => ({
      text: JSON.stringify({ suggestions: [], strategicRecommendation: 'Fine as it is.' }),
    }));
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++)
      statuses.push((await bob.post(`/api/flows/${flow.id}/suggestions`)).statusCode);
    expect(statuses.slice(0, 30).every((status) => status === 201)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});
