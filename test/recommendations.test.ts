import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  PatternRecord,
  RecommendationRecord,
  TemplateRecord,
} from '../src/domain/workflow-recommendations';
import { type FakeGemini, promptOf, startFakeGemini } from './support/fake-gemini';
import { as, type Client, createFlow, createTestApp, signUp, type TestApp } from './support/test-app';

/** The flow's execution (started on first use). */
async function executionOf(client: Client, flowId: string) {
  const latest = (await client.get(`/api/flows/${flowId}/executions/latest`)).json();
  return latest ?? (await client.post(`/api/flows/${flowId}/execute`)).json();
}

async function runStep(client: Client, flowId: string, stepId: string) {
  const execution = await executionOf(client, flowId);
  const run = await client.post(`/api/executions/${execution.id}/steps/${stepId}/execute`, {});
  expect(run.statusCode).toBe(200);
  return run.json().results as { id: string; result: string }[];
}

async function generate(client: Client) {
  const response = await client.post('/api/recommendations/generate');
  expect(response.statusCode).toBe(201);
  return response.json() as { count: number; recommendations: RecommendationRecord[] };
}

describe('workflow recommendations with the offline model', () => {
  let t: TestApp;
  let alice: Client;
  let bob: Client;
  let blog: { id: string };
  let newsletter: { id: string };
  let first: { count: number; recommendations: RecommendationRecord[] };

  beforeAll(async () => {
    t = await createTestApp();
    alice = as(t.app, (await signUp(t.app, 'Alice')).cookie);
    bob = as(t.app, (await signUp(t.app, 'Bob')).cookie);

    const created = await createFlow(alice, 'Blog post', [
      { name: 'Research', systemPrompt: 'List five facts about green tea.' },
      { name: 'Outline', systemPrompt: 'Outline an article from [[step-1]].' },
      { name: 'Draft', systemPrompt: 'Write the article from [[step-2]].' },
    ]);
    blog = created.flow;
    const [research, outline, draft] = created.steps;
    newsletter = (
      await createFlow(alice, 'Newsletter', [
        { name: 'Research', systemPrompt: 'Collect the news of the week about tea.' },
        { name: 'Write', systemPrompt: 'Write a newsletter from [[step-1]].' },
      ])
    ).flow;

    await runStep(alice, blog.id, research.id);
    // The outline is asked for again twice in the same execution: the user wanted another answer.
    for (let i = 0; i < 3; i++) await runStep(alice, blog.id, outline.id);
    const [drafted] = await runStep(alice, blog.id, draft.id);
    for (const text of ['A gentle start about tea.', 'A gentle start about green tea, for beginners.']) {
      expect((await alice.put(`/api/step-results/${drafted!.id}`, { result: text })).statusCode).toBe(200);
    }
    first = await generate(alice);
  });
  afterAll(() => t.close());

  it("makes recommendations that come from the user's own flows and steps, saying they are offline", () => {
    const { count, recommendations } = first;
    expect(count).toBe(recommendations.length);
    expect(count).toBeGreaterThanOrEqual(4);
    for (const r of recommendations) {
      expect(r.description).toContain('[Offline model]');
      expect(r.status).toBe('pending');
      expect(r.feedbackCount).toBe(0);
      expect(r.averageRating).toBeNull();
      expect(r.recommendedSteps.length).toBeGreaterThan(0);
    }
    const byType = (type: string) => recommendations.filter((r) => r.recommendationType === type);

    const [rerun] = byType('automation');
    expect(rerun).toMatchObject({ baseFlowId: blog.id, category: 'automation' });
    expect(rerun!.title).toContain('Outline');
    expect(rerun!.description).toContain('Blog post');
    expect(rerun!.recommendedSteps.find((s) => s.name === 'Outline')?.outputMode).toBe('multiple');

    const sharpen = byType('optimization').find((r) => r.title.includes('Draft'));
    expect(sharpen).toMatchObject({ baseFlowId: blog.id });
    expect(sharpen!.recommendedSteps.find((s) => s.name === 'Draft')?.systemPrompt).toContain(
      'A gentle start about green tea, for beginners.',
    );

    const template = byType('template')[0];
    expect(template!.title).toContain('Research');
    expect(template!.description).toContain('Blog post');
    expect(template!.description).toContain('Newsletter');

    const unused = byType('enhancement').find((r) => r.baseFlowId === newsletter.id);
    expect(unused!.title).toContain('Newsletter');
    // The brief comes first; the flow's steps follow with their references moved along.
    expect(unused!.recommendedSteps.map((s) => s.order)).toEqual([1, 2, 3]);
    expect(unused!.recommendedSteps[2]).toMatchObject({ name: 'Write' });
    expect(unused!.recommendedSteps[2]!.systemPrompt).toContain('[[step-2]]');
  });

  it('saves the patterns it found, counting them again when they are seen again', async () => {
    const before = (await alice.get('/api/patterns')).json() as PatternRecord[];
    expect(before.map((p) => p.patternType).sort()).toEqual([
      'repeated_step_shape',
      'rerun_single_step',
      'reworked_step',
      'unused_flow',
    ]);
    expect(before.every((p) => p.frequency === 1)).toBe(true);
    const rerun = before.find((p) => p.patternType === 'rerun_single_step')!;
    expect(rerun.patternData).toMatchObject({
      flowName: 'Blog post',
      stepName: 'Outline',
      reruns: 2,
      runs: 3,
    });

    const again = await generate(alice);
    const after = (await alice.get('/api/patterns')).json() as PatternRecord[];
    expect(after).toHaveLength(before.length);
    for (const pattern of after) {
      const earlier = before.find((p) => p.id === pattern.id)!;
      expect(pattern.frequency).toBe(2);
      expect(Date.parse(pattern.lastSeen)).toBeGreaterThanOrEqual(Date.parse(earlier.lastSeen));
    }
    // A new look replaces the recommendations nobody acted on.
    const listed = (await alice.get('/api/recommendations')).json() as RecommendationRecord[];
    expect(listed.map((r) => r.id).sort()).toEqual(again.recommendations.map((r) => r.id).sort());
    first = again;
  });

  it("lists only the user's recommendations and patterns", async () => {
    const listed = (await alice.get('/api/recommendations')).json() as RecommendationRecord[];
    expect(listed.length).toBe(first.count);
    expect((await bob.get('/api/recommendations')).json()).toEqual([]);
    expect((await bob.get('/api/patterns')).json()).toEqual([]);
  });

  it('lists the stored templates and the built-in ones', async () => {
    const [alicesId] = await t.db.sql<{ id: string }[]>`SELECT id FROM users ORDER BY created_at LIMIT 1`;
    await t.db.sql`
      INSERT INTO workflow_templates (name, description, category, template_steps)
      VALUES ('Weekly report', 'Sum up the week', 'business', '[]')`;
    await t.db.sql`
      INSERT INTO workflow_templates (name, is_public, created_by) VALUES ('Private draft', false, ${alicesId!.id})`;
    const templates = (await bob.get('/api/templates')).json() as TemplateRecord[];
    expect(templates.map((x) => x.name)).toEqual([
      'Weekly report',
      'Phân tích chiến lược kinh doanh',
      'Sáng tạo nội dung marketing',
      'Nghiên cứu và phát triển sản phẩm',
    ]);
    expect(templates[0]).toMatchObject({ builtin: false, usageCount: 0, averageRating: 0, isPublic: true });
    expect(templates[1]).toMatchObject({ builtin: true, difficulty: 'beginner' });
    expect(templates[1]!.templateSteps).toHaveLength(3);
    const alices = (await alice.get('/api/templates')).json() as TemplateRecord[];
    expect(alices.map((x) => x.name)).toContain('Private draft');
  });

  it('implements a recommendation as a new flow with its steps', async () => {
    const recommendation = first.recommendations.find((r) => r.recommendationType === 'automation')!;
    const response = await alice.post(`/api/recommendations/${recommendation.id}/implement`);
    expect(response.statusCode).toBe(201);
    const flow = response.json();
    expect(flow).toMatchObject({ name: recommendation.title, description: recommendation.description });
    const steps = (await alice.get(`/api/flows/${flow.id}/steps`)).json();
    expect(
      steps.map((s: { order: number; name: string; systemPrompt: string; outputMode: string }) => [
        s.order,
        s.name,
        s.systemPrompt,
        s.outputMode,
      ]),
    ).toEqual(recommendation.recommendedSteps.map((s) => [s.order, s.name, s.systemPrompt, s.outputMode]));
    const flows = (await alice.get('/api/flows')).json() as { id: string }[];
    expect(flows.map((f) => f.id)).toContain(flow.id);
    const listed = (await alice.get('/api/recommendations')).json() as RecommendationRecord[];
    expect(listed.find((r) => r.id === recommendation.id)?.status).toBe('implemented');
    // The flow's stream says which path made it.
    const [created] = (await alice.get(`/api/flows/${flow.id}/versions`)).json();
    expect(created.summary).toBe(
      `Tạo từ một recommendation, gồm ${recommendation.recommendedSteps.length} step`,
    );
  });

  it('names a flow made from a recommendation by the flow behind it, so titles never nest', async () => {
    const dung = as(t.app, (await signUp(t.app, 'Dung')).cookie);
    await createFlow(dung, 'Blog trà', [{ name: 'Viết', systemPrompt: 'Viết bài về trà.' }]);
    const briefTitle = 'Thêm brief mở đầu cho "Blog trà"';
    let titles = (await generate(dung)).recommendations.map((r) => r.title);
    expect(titles).toContain(briefTitle);
    // Implemented twice over: each new flow is named by the title and never run, so it is briefed in turn
    // (the implemented recommendations stay listed, each once).
    for (let round = 0; round < 2; round++) {
      const { recommendations } = await generate(dung);
      const brief = recommendations.find((r) => r.title === briefTitle && r.baseFlowId !== null)!;
      const implemented = await dung.post(`/api/recommendations/${brief.id}/implement`);
      expect(implemented.statusCode).toBe(201);
      await generate(dung);
      const listed = (await dung.get('/api/recommendations')).json() as RecommendationRecord[];
      titles = listed.map((r) => r.title);
      expect(titles.filter((title) => title === briefTitle).length).toBe(round + 2);
      expect(new Set(listed.map((r) => `${r.baseFlowId} ${r.title}`)).size).toBe(listed.length);
      expect(titles.every((title) => !title.includes('cho "Thêm brief'))).toBe(true);
    }
  });

  it('records feedback: the count, the average rating, the comment and a dismissal', async () => {
    const recommendation = first.recommendations.find((r) => r.recommendationType === 'template')!;
    const url = `/api/recommendations/${recommendation.id}/feedback`;
    const accepted = await alice.post(url, { action: 'accepted', rating: 4 });
    expect(accepted.statusCode).toBe(201);
    expect(accepted.json()).toMatchObject({ feedbackCount: 1, averageRating: 4, status: 'accepted' });
    const modified = await alice.post(url, {
      action: 'modified',
      rating: 5,
      feedback: 'Useful, renamed it.',
    });
    expect(modified.json()).toMatchObject({
      feedbackCount: 2,
      averageRating: 4.5,
      status: 'accepted',
      userFeedback: 'Useful, renamed it.',
    });
    const dismissed = await alice.post(url, { action: 'dismissed', rating: 1 });
    expect(dismissed.json()).toMatchObject({ feedbackCount: 3, status: 'dismissed' });
    expect(dismissed.json().averageRating).toBeCloseTo(10 / 3, 2);
    const rows = await t.db.sql`
      SELECT action, rating, feedback FROM recommendation_feedback
      WHERE recommendation_id = ${recommendation.id} ORDER BY created_at`;
    expect(rows.map((r) => [r.action, r.rating, r.feedback])).toEqual([
      ['accepted', 4, null],
      ['modified', 5, 'Useful, renamed it.'],
      ['dismissed', 1, null],
    ]);

    // Acted on, it survives the next look at the flows, which does not list it a second time.
    const again = await generate(alice);
    const listed = (await alice.get('/api/recommendations')).json() as RecommendationRecord[];
    expect(listed.find((r) => r.id === recommendation.id)?.feedbackCount).toBe(3);
    expect(listed.filter((r) => r.title === recommendation.title)).toHaveLength(1);
    expect(again.recommendations.map((r) => r.title)).not.toContain(recommendation.title);
    const titles = listed.map((r) => `${r.baseFlowId} ${r.title}`);
    expect(new Set(titles).size).toBe(titles.length);
  });

  it('refuses bad input with 400', async () => {
    const [recommendation] = first.recommendations;
    const url = `/api/recommendations/${recommendation!.id}/feedback`;
    for (const body of [
      { action: 'accepted', rating: 0 },
      { action: 'accepted', rating: 6 },
      { action: 'accepted', rating: 2.5 },
      { action: 'maybe', rating: 3 },
      { rating: 3 },
      { action: 'accepted' },
      { action: 'accepted', rating: 3, extra: true },
    ]) {
      const response = await alice.post(url, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().issues.length).toBeGreaterThan(0);
    }
    expect(
      (await alice.post('/api/recommendations/not-a-uuid/feedback', { action: 'accepted', rating: 3 }))
        .statusCode,
    ).toBe(400);
    expect((await alice.post('/api/recommendations/not-a-uuid/implement')).statusCode).toBe(400);
    expect((await alice.post('/api/recommendations/generate', { more: 1 })).statusCode).toBe(400);
  });

  it("answers 404 for another user's recommendation and changes nothing", async () => {
    const [recommendation] = (await alice.get('/api/recommendations')).json() as RecommendationRecord[];
    const flowsBefore = (await bob.get('/api/flows')).json();
    expect((await bob.post(`/api/recommendations/${recommendation!.id}/implement`)).statusCode).toBe(404);
    const feedback = await bob.post(`/api/recommendations/${recommendation!.id}/feedback`, {
      action: 'dismissed',
      rating: 1,
    });
    expect(feedback.statusCode).toBe(404);
    expect((await bob.get('/api/flows')).json()).toEqual(flowsBefore);
    const [row] = await t.db
      .sql`SELECT status, feedback_count FROM workflow_recommendations WHERE id = ${recommendation!.id}`;
    expect(row).toMatchObject({
      feedbackCount: recommendation!.feedbackCount,
      status: recommendation!.status,
    });
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await alice.post(`/api/recommendations/${missing}/implement`)).statusCode).toBe(404);
  });

  it('offers the built-in templates to a user with no flows yet, ready to implement', async () => {
    const carol = as(t.app, (await signUp(t.app, 'Carol')).cookie);
    const { count, recommendations } = await generate(carol);
    expect(count).toBe(3);
    expect(recommendations.every((r) => r.recommendationType === 'template' && r.baseFlowId === null)).toBe(
      true,
    );
    expect(recommendations.map((r) => r.title).join(' ')).toContain('Sáng tạo nội dung marketing');
    const flow = (await carol.post(`/api/recommendations/${recommendations[0]!.id}/implement`)).json();
    expect((await carol.get(`/api/flows/${flow.id}/steps`)).json()).toHaveLength(3);
  });

  it('answers 401 without a session', async () => {
    for (const url of ['/api/recommendations', '/api/templates', '/api/patterns']) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }
    expect((await t.app.inject({ method: 'POST', url: '/api/recommendations/generate' })).statusCode).toBe(
      401,
    );
  });
});

describe('workflow recommendations with Gemini', () => {
  let fake: FakeGemini;
  let t: TestApp;
  let dana: Client;

  beforeAll(async () => {
    fake = await startFakeGemini();
    t = await createTestApp({ geminiApiKey: 'server-key', geminiBaseUrl: fake.url });
    dana = as(t.app, (await signUp(t.app, 'Dana')).cookie);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it("sends the model the user's flows and patterns in JSON mode, and stores its validated answer", async () => {
    const { flow } = await createFlow(dana, 'Sales email', [
      { name: 'Prospect notes', systemPrompt: 'Summarise the prospect.' },
    ]);
    fake.respondWith(() => ({
      text: JSON.stringify({
        recommendations: [
          {
            recommendationType: 'enhancement',
            title: 'Follow-up for Sales email',
            description: 'Adds a follow-up step to "Sales email".',
            category: 'business',
            priority: 'high',
            confidence: 82,
            baseFlowId: flow.id,
            recommendedSteps: [
              {
                order: 2,
                name: 'Follow-up',
                systemPrompt: 'Write a follow-up to [[step-1]].',
                outputMode: 'single',
                reasoning: 'Second touch.',
              },
              {
                order: 1,
                name: 'Prospect notes',
                systemPrompt: 'Summarise the prospect.',
                outputMode: 'single',
                reasoning: 'Kept.',
              },
            ],
            benefits: ['More replies'],
            estimatedTimeReduction: 12,
            implementationComplexity: 'low',
            tags: ['sales'],
          },
          {
            recommendationType: 'template',
            title: 'Not one of hers',
            description: 'Names a flow that is not the user’s.',
            category: 'unknown-category',
            priority: 'medium',
            confidence: 60,
            baseFlowId: '00000000-0000-4000-8000-000000000000',
            recommendedSteps: [
              { order: 1, name: 'Only', systemPrompt: 'Do it.', outputMode: 'single', reasoning: '' },
            ],
            benefits: [],
            implementationComplexity: 'medium',
            tags: [],
          },
        ],
      }),
    }));
    const { count, recommendations } = await generate(dana);
    expect(count).toBe(2);
    const call = fake.requests.at(-1)!;
    expect(call.body.generationConfig).toMatchObject({ responseMimeType: 'application/json' });
    expect(promptOf(call.body)).toContain('Sales email');
    expect(promptOf(call.body)).toContain('never been run');
    const [followUp, other] = recommendations;
    expect(followUp).toMatchObject({
      title: 'Follow-up for Sales email',
      priority: 'high',
      confidence: 82,
      baseFlowId: flow.id,
      estimatedTimeReduction: 12,
    });
    expect(followUp!.recommendedSteps.map((s) => [s.order, s.name])).toEqual([
      [1, 'Prospect notes'],
      [2, 'Follow-up'],
    ]);
    expect(other).toMatchObject({ baseFlowId: null, category: 'other' });
  });

  it('answers 502 when the model answers in the wrong shape, keeping what was there', async () => {
    const before = (await dana.get('/api/recommendations')).json();
    fake.respondWith(() => ({ text: JSON.stringify({ recommendations: 'none' }) }));
    const response = await dana.post('/api/recommendations/generate');
    expect(response.statusCode).toBe(502);
    expect(response.json()).toMatchObject({ retryable: true });
    expect((await dana.get('/api/recommendations')).json()).toEqual(before);
  });
});

describe('a recommendation made from a configured flow', () => {
  let t: TestApp;
  let carol: Client;
  afterAll(() => t.close());

  it('keeps every step configuration, from the recommendation shown to the flow it implements', async () => {
    t = await createTestApp();
    carol = as(t.app, (await signUp(t.app, 'Carol')).cookie);
    const { flow, steps } = await createFlow(carol, 'Cấu hình', [
      {
        name: 'Ý tưởng',
        systemPrompt: 'Chọn hướng viết.',
        outputMode: 'multiple_choice',
        choices: ['Ngắn', 'Dài'],
        requiresUserInput: true,
      },
      { name: 'Lặp', systemPrompt: 'Viết lại [[step-1]].', outputMode: 'loop', maxLoopIterations: 3 },
      { name: 'Viết', systemPrompt: 'Viết bài từ [[step-2]].' },
    ]);
    const [idea, loop, write] = steps;
    await carol.put(`/api/steps/${loop.id}`, { inputSources: [idea.id] });
    await carol.put(`/api/steps/${write.id}`, { inputSources: [idea.id, loop.id] });
    // Two corrections of the last step's result make a "Làm rõ step" recommendation of this flow.
    const execution = (await carol.post(`/api/flows/${flow.id}/execute`)).json();
    const run = await carol.post(`/api/executions/${execution.id}/steps/${write.id}/execute`, {});
    const [written] = run.json().results;
    for (const text of ['Bản sửa một.', 'Bản sửa hai, tốt hơn.']) {
      await carol.put(`/api/step-results/${written.id}`, { result: text });
    }
    const { recommendations } = await generate(carol);
    const sharpen = recommendations.find((r) => r.title.startsWith('Làm rõ step "Viết"'))!;
    expect(sharpen).toBeDefined();
    const configuration = (s: Record<string, unknown>) => ({
      order: s.order,
      outputMode: s.outputMode,
      choices: s.choices,
      maxLoopIterations: s.maxLoopIterations,
      requiresUserInput: s.requiresUserInput,
    });
    expect(sharpen.recommendedSteps.map(configuration)).toEqual([
      {
        order: 1,
        outputMode: 'multiple_choice',
        choices: ['Ngắn', 'Dài'],
        maxLoopIterations: 1,
        requiresUserInput: true,
      },
      { order: 2, outputMode: 'loop', choices: [], maxLoopIterations: 3, requiresUserInput: false },
      { order: 3, outputMode: 'single', choices: [], maxLoopIterations: 1, requiresUserInput: false },
    ]);
    expect(sharpen.recommendedSteps.map((s) => s.inputSources)).toEqual([
      [],
      ['step-1'],
      ['step-1', 'step-2'],
    ]);

    const implemented = await carol.post(`/api/recommendations/${sharpen.id}/implement`);
    expect(implemented.statusCode).toBe(201);
    const created = (await carol.get(`/api/flows/${implemented.json().id}/steps`)).json();
    expect(created.map(configuration)).toEqual(sharpen.recommendedSteps.map(configuration));
    const [newIdea, newLoop, newWrite] = created;
    expect(newLoop.loopTargetStepId).toBe(newLoop.id);
    expect(newLoop.inputSources).toEqual([newIdea.id]);
    expect(newWrite.inputSources).toEqual([newIdea.id, newLoop.id]);
  });
});

describe('recommendations from steps Workflow JSON cannot hold as they are', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** Generating answers 201 and the list stays readable (a stored step its answer refused was a 500 on both). */
  async function generateAndList(client: Client) {
    const made = await generate(client);
    const listed = await client.get('/api/recommendations');
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toHaveLength(made.count);
    return made;
  }

  it('leaves out the blank choices of a multiple_choice step (the editor’s empty rows)', async () => {
    const dan = as(t.app, (await signUp(t.app, 'Dan')).cookie);
    await createFlow(dan, 'Choice', [
      { name: 'Pick', systemPrompt: 'Pick one.', outputMode: 'multiple_choice', choices: ['', 'Short', ' '] },
    ]);
    const { recommendations } = await generateAndList(dan);
    expect(recommendations.length).toBeGreaterThan(0);
    for (const recommendation of recommendations) {
      const pick = recommendation.recommendedSteps.find((step) => step.name === 'Pick');
      expect(pick?.choices).toEqual(['Short']);
    }
  });

  it('leaves out what Workflow JSON cannot hold: a prompt over 20,000 characters, more than 20 steps', async () => {
    const eve = as(t.app, (await signUp(t.app, 'Eve')).cookie);
    await createFlow(eve, 'Long prompt', [{ name: 'Long', systemPrompt: 'p'.repeat(30_000) }]);
    const steps = Array.from({ length: 55 }, (_, i) => ({ name: `Step ${i + 1}`, systemPrompt: 'Go on.' }));
    await createFlow(eve, 'Many steps', steps);
    const { recommendations } = await generateAndList(eve);
    for (const recommendation of recommendations) {
      expect(recommendation.recommendedSteps.length).toBeLessThanOrEqual(20);
      for (const step of recommendation.recommendedSteps)
        expect(step.systemPrompt.length).toBeLessThanOrEqual(20_000);
    }
  });
});
