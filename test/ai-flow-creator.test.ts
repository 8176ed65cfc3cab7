import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CONVERSATION_HISTORY_MAX_LENGTH, CREATOR_MESSAGE_MAX_LENGTH } from '../src/domain/ai-flow-creator';
import { workflowJsonSchema } from '../src/domain/workflow-json';
import { type FakeGemini, promptOf, startFakeGemini } from './support/fake-gemini';
import { as, type Client, createTestApp, signUp, type TestApp } from './support/test-app';

const IMPROVE = '/api/ai/flow-creator/improve';
const PROPOSAL = '/api/ai/flow-creator/proposal';

const conversation = [
  'User: Viết bài blog về trà xanh cho người mới uống trà.',
  'AI (improved description): Mục tiêu: một bài blog 800 từ, giọng thân thiện.',
  'User: Thêm một bước tối ưu SEO.',
].join('\n\n');

describe('AI flow creator with the offline model', () => {
  let t: TestApp;
  let alice: Client;

  beforeAll(async () => {
    t = await createTestApp();
    alice = as(t.app, (await signUp(t.app, 'Alice')).cookie);
  });
  afterAll(() => t.close());

  it('improves a description', async () => {
    const response = await alice.post(IMPROVE, {
      description: '  Viết bài blog về trà xanh cho người mới.  ',
    });
    expect(response.statusCode).toBe(200);
    const { improvement } = response.json() as { improvement: string };
    const lines = improvement.split('\n');
    expect(lines[0]).toMatch(/^\[Offline model\] Mô tả đã được làm rõ/);
    expect(lines[1]).toBe('Mục tiêu: Viết bài blog về trà xanh cho người mới.');
    expect(improvement).toContain('Các giai đoạn:');
    // Deterministic: the same description gets the same improvement.
    expect(
      (await alice.post(IMPROVE, { description: 'Viết bài blog về trà xanh cho người mới.' })).json(),
    ).toEqual({
      improvement,
    });
  });

  it('proposes a workflow from the conversation, named after the first message', async () => {
    const response = await alice.post(PROPOSAL, { conversationHistory: conversation });
    expect(response.statusCode).toBe(200);
    const { proposal } = response.json();
    expect(workflowJsonSchema.safeParse(proposal).success).toBe(true);
    expect(proposal.name).toBe('Viết bài blog về trà xanh cho người mới uống trà');
    expect(proposal.description).toMatch(/^\[Offline model\]/);
    expect(proposal.steps.map((s: { order: number; outputMode: string }) => [s.order, s.outputMode])).toEqual(
      [
        [1, 'single'],
        [2, 'multiple'],
        [3, 'single'],
        [4, 'single'],
      ],
    );
    expect(proposal.steps[0].systemPrompt).toContain('Viết bài blog về trà xanh');
    // The later wish, a step to add, is a step of the proposal, and the description says so.
    expect(proposal.steps[3].name).toMatch(/tối ưu SEO/i);
    expect(proposal.description).toMatch(/Đã thêm bước/);
    expect(proposal.steps[1].inputSources).toEqual(['step-1']);
  });

  it('refuses blank, missing, oversized and unknown input with 400', async () => {
    const cases: Array<[string, unknown]> = [
      [IMPROVE, { description: '' }],
      [IMPROVE, { description: '   \n ' }],
      [IMPROVE, {}],
      [IMPROVE, undefined],
      [IMPROVE, { description: 42 }],
      [IMPROVE, { description: 'x'.repeat(CREATOR_MESSAGE_MAX_LENGTH + 1) }],
      [IMPROVE, { description: 'Blog', extra: true }],
      [PROPOSAL, { conversationHistory: '' }],
      [PROPOSAL, { conversationHistory: ' \t ' }],
      [PROPOSAL, { description: 'Blog' }],
      [PROPOSAL, { conversationHistory: 'x'.repeat(CONVERSATION_HISTORY_MAX_LENGTH + 1) }],
    ];
    for (const [url, body] of cases) {
      const response = await alice.post(url, body);
      expect(response.statusCode, `${url} ${JSON.stringify(body)?.slice(0, 60)}`).toBe(400);
      expect(response.json()).toMatchObject({ message: expect.any(String), issues: expect.any(Array) });
    }
  });

  it('answers 401 without a session', async () => {
    for (const [url, payload] of [
      [IMPROVE, { description: 'Blog' }],
      [PROPOSAL, { conversationHistory: 'User: Blog' }],
    ] as const) {
      const response = await t.app.inject({ method: 'POST', url, payload });
      expect(response.statusCode).toBe(401);
    }
  });

  it('is not stopped by the free step allowance, being no step run', async () => {
    const limited = await createTestApp({ freeStepAllowance: 0 });
    try {
      const bob = as(limited.app, (await signUp(limited.app, 'Bob')).cookie);
      expect((await bob.post(IMPROVE, { description: 'Blog' })).statusCode).toBe(200);
      expect((await bob.post(PROPOSAL, { conversationHistory: 'User: Blog' })).statusCode).toBe(200);
      expect((await bob.get('/api/user/usage')).json()).toMatchObject({ usedSteps: 0 });
    } finally {
      await limited.close();
    }
  });
});

describe('AI flow creator with Gemini', () => {
  let fake: FakeGemini;
  let t: TestApp;
  let alice: Client;

  beforeAll(async () => {
    fake = await startFakeGemini();
    t = await createTestApp({ geminiApiKey: 'server-key', geminiBaseUrl: fake.url, modelCallsPerMinute: 4 });
    alice = as(t.app, (await signUp(t.app, 'Alice')).cookie);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  afterEach(() => {
    fake.requests.length = 0;
  });

  it("answers the model's improvement and proposal, asked with the server key", async () => {
    fake.respondWith((body) =>
      body.generationConfig?.responseMimeType === 'application/json'
        ? {
            text: JSON.stringify({
              name: 'Blog trà xanh',
              description: 'Ba bước viết blog.',
              steps: [
                {
                  name: 'Dàn ý',
                  order: 1,
                  systemPrompt: 'Lập dàn ý.',
                  outputMode: 'single',
                  requiresUserInput: true,
                  inputSources: [],
                },
                {
                  name: 'Bản nháp',
                  order: 2,
                  systemPrompt: 'Viết từ [[step-1]].',
                  outputMode: 'multiple_choice',
                  requiresUserInput: false,
                  inputSources: ['step-1'],
                },
              ],
            }),
          }
        : { text: '  Mục tiêu: một bài blog về trà xanh.\n' },
    );

    const improved = await alice.post(IMPROVE, { description: 'blog trà xanh' });
    expect(improved.statusCode).toBe(200);
    expect(improved.json()).toEqual({ improvement: 'Mục tiêu: một bài blog về trà xanh.' });
    expect(fake.requests[0]?.apiKey).toBe('server-key');
    expect(promptOf(fake.requests[0]!.body)).toBe('blog trà xanh');

    const proposed = await alice.post(PROPOSAL, { conversationHistory: conversation });
    expect(proposed.statusCode).toBe(200);
    const prompt = promptOf(fake.requests[1]!.body);
    // The user's words lead, then the whole conversation in order.
    expect(prompt).toBe(
      `Viết bài blog về trà xanh cho người mới uống trà.\n\n- Thêm một bước tối ưu SEO.\n\nConversation:\n\n${conversation}`,
    );
    // A mode the creator does not propose becomes single.
    expect(proposed.json().proposal).toEqual({
      name: 'Blog trà xanh',
      description: 'Ba bước viết blog.',
      steps: [
        {
          name: 'Dàn ý',
          order: 1,
          systemPrompt: 'Lập dàn ý.',
          outputMode: 'single',
          requiresUserInput: true,
          inputSources: [],
        },
        {
          name: 'Bản nháp',
          order: 2,
          systemPrompt: 'Viết từ [[step-1]].',
          outputMode: 'single',
          requiresUserInput: false,
          inputSources: ['step-1'],
        },
      ],
    });
  });

  it("asks with the user's own key when they have one", async () => {
    const bob = as(t.app, (await signUp(t.app, 'Bob')).cookie);
    const added = await bob.post('/api/user/api-keys', {
      keyName: 'Gemini của Bob',
      apiKey: 'AIza-bob-own-key',
      keyType: 'gemini',
    });
    expect(added.statusCode).toBeLessThan(300);
    fake.respondWith(() => ({ text: 'Mục tiêu: blog.' }));
    expect((await bob.post(IMPROVE, { description: 'blog' })).statusCode).toBe(200);
    expect(fake.requests.map((r) => r.apiKey)).toEqual(['AIza-bob-own-key']);
  });

  it('answers 502 when the model fails or its answer is not a workflow, then limits calls per minute', async () => {
    fake.respondWith(() => ({ status: 503, message: 'The model is overloaded.' }));
    const failed = await alice.post(IMPROVE, { description: 'blog' });
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toMatchObject({ message: expect.stringContaining('503'), retryable: true });

    fake.respondWith(() => ({ text: '{"name": "No steps"}' }));
    const notAWorkflow = await alice.post(PROPOSAL, { conversationHistory: 'User: blog' });
    expect(notAWorkflow.statusCode).toBe(502);
    expect(notAWorkflow.json().message).toContain('not a usable workflow');

    // Four calls a minute here, counted per user: past them the calls are refused.
    fake.respondWith(() => ({ text: 'Mục tiêu: blog.' }));
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await alice.post(IMPROVE, { description: 'blog' })).statusCode);
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.join(' ')).toMatch(/^(200 )*(429 ?)+$/);
  });
});
