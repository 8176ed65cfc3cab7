import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_TEMPLATES } from '../src/domain/builtin-templates';
import { workflowJsonSchema } from '../src/domain/workflow-json';
import { readImport } from '../src/machines/ai-creator-dialog';
import { type FakeGemini, promptOf, startFakeGemini } from './support/fake-gemini';
import { as, type Client, createTestApp, signUp, type TestApp } from './support/test-app';

const BLANK = 'Vui lòng nhập mô tả workflow bạn muốn tạo.';

/** A workflow of three steps where the third builds on both earlier ones. */
const threeSteps = {
  name: 'Kế hoạch du lịch',
  description: 'Lên kế hoạch một chuyến đi Huế',
  steps: [
    {
      name: 'Điểm đến',
      order: 1,
      systemPrompt: 'Gợi ý điểm đến ở Huế',
      outputMode: 'single',
      requiresUserInput: true,
      inputSources: [],
    },
    {
      name: 'Lịch trình',
      order: 2,
      systemPrompt: 'Lịch trình từ [[step-1]]',
      outputMode: 'multiple',
      requiresUserInput: false,
      inputSources: ['step-1'],
    },
    {
      name: 'Chi phí',
      order: 3,
      systemPrompt: 'Chi phí cho [[step-2]] tại [[step-1]]',
      outputMode: 'single',
      requiresUserInput: false,
      inputSources: ['step-1', 'step-2'],
    },
  ],
};

interface StepRow {
  id: string;
  order: number;
  name: string;
  systemPrompt: string;
  outputMode: string;
  inputSources: string[];
  choices: string[];
  loopTargetStepId: string | null;
  maxLoopIterations: number;
  requiresUserInput: boolean;
}

const flowNames = async (client: Client) =>
  ((await client.get('/api/flows')).json() as Array<{ name: string }>).map((f) => f.name);

describe('AI workflows with the offline model', () => {
  let t: TestApp;
  let alice: Client;
  let bob: Client;

  beforeAll(async () => {
    t = await createTestApp();
    alice = as(t.app, (await signUp(t.app, 'Alice')).cookie);
    bob = as(t.app, (await signUp(t.app, 'Bob')).cookie);
  });
  afterAll(() => t.close());

  it('answers 401 without a session', async () => {
    for (const url of ['/api/ai/generate-workflow', '/api/ai/create-from-json']) {
      expect((await t.app.inject({ method: 'POST', url, payload: {} })).statusCode).toBe(401);
    }
  });

  it('generates a valid 3-step workflow from a description', async () => {
    const response = await alice.post('/api/ai/generate-workflow', {
      description: '  Viết chuỗi bài đăng giới thiệu tiệm bánh mì mới mở ở Hội An.  ',
      includeTemplateHints: true,
    });
    expect(response.statusCode).toBe(200);
    const { workflow } = response.json();
    expect(workflowJsonSchema.safeParse(workflow).success).toBe(true);
    expect(workflow.name).toBe('Viết chuỗi bài đăng giới thiệu tiệm bánh mì mới mở ở Hội An');
    expect(workflow.description).toMatch(/^\[Offline model\]/);
    expect(workflow.steps).toHaveLength(3);
    expect(workflow.steps.map((s: StepRow) => s.inputSources)).toEqual([
      [],
      ['step-1'],
      ['step-1', 'step-2'],
    ]);
    expect(workflow.steps[2].systemPrompt).toContain('[[step-2]]');
  });

  it('refuses a blank, missing or oversized description and a body that is not JSON with 400', async () => {
    for (const description of ['', '   \n ']) {
      const response = await alice.post('/api/ai/generate-workflow', {
        description,
        includeTemplateHints: true,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: BLANK, issues: expect.any(Array) });
    }
    const missing = await alice.post('/api/ai/generate-workflow', { includeTemplateHints: true });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toMatch(/^description: /);

    const oversized = await alice.post('/api/ai/generate-workflow', { description: 'x'.repeat(10_001) });
    expect(oversized.statusCode).toBe(400);
    expect(oversized.json().message).toBe('description: tối đa 10000 ký tự');

    for (const url of ['/api/ai/generate-workflow', '/api/ai/create-from-json']) {
      const malformed = await alice.post(url, '{"description": "half', {
        'content-type': 'application/json',
      });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().message).toEqual(expect.any(String));
    }
  });

  it('creates the flow and its steps from Workflow JSON, mapping step-N to the created ids', async () => {
    const response = await alice.post('/api/ai/create-from-json', { workflowJSON: threeSteps });
    expect(response.statusCode).toBe(201);
    const { unavailableModels, defaultModel, ...flow } = response.json();
    expect(flow).toMatchObject({
      name: 'Kế hoạch du lịch',
      description: 'Lên kế hoạch một chuyến đi Huế',
      status: 'draft',
    });
    // Its steps name no model: all run on the default, the offline model here.
    expect({ unavailableModels, defaultModel }).toEqual({
      unavailableModels: [],
      defaultModel: 'offline:offline',
    });
    expect((await alice.get(`/api/flows/${flow.id}`)).json()).toEqual(flow);

    const steps = (await alice.get(`/api/flows/${flow.id}/steps`)).json() as StepRow[];
    expect(steps.map((s) => [s.order, s.name, s.outputMode, s.requiresUserInput])).toEqual([
      [1, 'Điểm đến', 'single', true],
      [2, 'Lịch trình', 'multiple', false],
      [3, 'Chi phí', 'single', false],
    ]);
    const [one, two, three] = steps;
    expect(one!.inputSources).toEqual([]);
    expect(two!.inputSources).toEqual([one!.id]);
    expect(three!.inputSources).toEqual([one!.id, two!.id]);
    expect(three!.systemPrompt).toBe('Chi phí cho [[step-2]] tại [[step-1]]');

    const listed = (await alice.get('/api/flows')).json() as Array<{ id: string; stepCount: number }>;
    expect(listed.find((f) => f.id === flow.id)?.stepCount).toBe(3);
  });

  it('keeps choices and loop settings, and the orders as written', async () => {
    const workflowJSON = {
      name: 'Imported',
      steps: [
        { name: 'Draft', order: 2, systemPrompt: 'Draft', outputMode: 'loop', maxLoopIterations: 4 },
        {
          name: 'Pick',
          order: 5,
          systemPrompt: 'Pick one of [[step-2]]',
          outputMode: 'multiple_choice',
          choices: ['A', 'B'],
          inputSources: ['step_2'],
        },
      ],
    };
    const flow = (await alice.post('/api/ai/create-from-json', { workflowJSON })).json();
    expect(flow.description).toBe('Imported');
    const [draft, pick] = (await alice.get(`/api/flows/${flow.id}/steps`)).json() as StepRow[];
    expect(draft).toMatchObject({
      order: 2,
      outputMode: 'loop',
      maxLoopIterations: 4,
      loopTargetStepId: draft!.id,
      choices: [],
    });
    expect(pick).toMatchObject({
      order: 5,
      choices: ['A', 'B'],
      inputSources: [draft!.id],
      maxLoopIterations: 1,
    });
  });

  it('refuses a later, the same or a missing step as input source with 400, creating nothing', async () => {
    const before = await flowNames(alice);
    const withSources = (order: number, inputSources: string[]) => ({
      ...threeSteps,
      name: `Broken ${order} ${inputSources.join(',')}`,
      steps: threeSteps.steps.map((step) => (step.order === order ? { ...step, inputSources } : step)),
    });
    const cases: Array<[ReturnType<typeof withSources>, RegExp]> = [
      [withSources(1, ['step-2']), /Step 1 "Điểm đến": input source 'step-2' không phải step đứng trước/],
      [withSources(2, ['step-2']), /Step 2 "Lịch trình": input source 'step-2' không phải step đứng trước/],
      [
        withSources(3, ['step-1', 'step-7']),
        /Step 3 "Chi phí": input source 'step-7' không trỏ tới step nào/,
      ],
      [withSources(2, ['Điểm đến']), /phải có dạng 'step-N'/],
    ];
    for (const [workflowJSON, message] of cases) {
      const response = await alice.post('/api/ai/create-from-json', { workflowJSON });
      expect(response.statusCode, workflowJSON.name).toBe(400);
      expect(response.json().message).toMatch(message);
      expect(response.json().issues).toEqual(expect.any(Array));
    }
    expect(await flowNames(alice)).toEqual(before);
  });

  it('refuses Workflow JSON outside its limits with 400', async () => {
    const step = threeSteps.steps[0]!;
    const invalid: Array<[unknown, RegExp]> = [
      [{ ...threeSteps, name: 'x'.repeat(201) }, /^workflowJSON\.name: /],
      [{ ...threeSteps, steps: [] }, /workflow cần ít nhất một step/],
      [
        { ...threeSteps, steps: Array.from({ length: 51 }, (_, i) => ({ ...step, order: i + 1 })) },
        /workflow có tối đa 50 step/,
      ],
      [{ ...threeSteps, steps: [step, { ...step, name: 'Again' }] }, /hai step cùng order 1/],
      [
        { ...threeSteps, steps: [{ ...step, outputMode: 'loop', maxLoopIterations: 101 }] },
        /maxLoopIterations/,
      ],
      [{ ...threeSteps, steps: [{ ...step, outputMode: 'multiple_choice' }] }, /cần ít nhất một lựa chọn/],
      [{ ...threeSteps, steps: [{ ...step, outputMode: 'many' }] }, /outputMode/],
      [{ ...threeSteps, steps: [{ ...step, systemPrompt: undefined }] }, /systemPrompt/],
    ];
    for (const [workflowJSON, message] of invalid) {
      const response = await alice.post('/api/ai/create-from-json', { workflowJSON });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(message);
    }
    expect((await alice.post('/api/ai/create-from-json', {})).statusCode).toBe(400);
  });

  it("imports a file's nameless first flow as 'Untitled'", async () => {
    const { name: _, ...nameless } = threeSteps;
    const reading = readImport(JSON.stringify({ flows: [nameless, threeSteps] }));
    expect(reading.kind).toBe('workflow');
    const workflowJSON = reading.kind === 'workflow' ? reading.workflow : null;
    for (const body of [{ workflowJSON }, { workflowJSON: { ...threeSteps, name: ' ' } }]) {
      const response = await alice.post('/api/ai/create-from-json', body);
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({ name: 'Untitled', description: threeSteps.description });
      const steps = (await alice.get(`/api/flows/${response.json().id}/steps`)).json() as StepRow[];
      expect(steps.map((s) => s.name)).toEqual(['Điểm đến', 'Lịch trình', 'Chi phí']);
    }
  });

  it('creates a flow from each built-in template', async () => {
    for (const { workflow } of BUILTIN_TEMPLATES) {
      const response = await alice.post('/api/ai/create-from-json', { workflowJSON: workflow });
      expect(response.statusCode).toBe(201);
      const steps = (await alice.get(`/api/flows/${response.json().id}/steps`)).json() as StepRow[];
      expect(steps.map((s) => s.name)).toEqual(workflow.steps.map((s) => s.name));
      expect(steps[2]!.inputSources).toEqual([steps[0]!.id, steps[1]!.id]);
    }
  });

  it('takes back what Export JSON gives: the same steps again', async () => {
    const original = (await alice.post('/api/ai/create-from-json', { workflowJSON: threeSteps })).json();
    const { workflow } = (await alice.get(`/api/flows/${original.id}/export`)).json();
    const copy = (await alice.post('/api/ai/create-from-json', { workflowJSON: workflow })).json();
    expect((await alice.get(`/api/flows/${copy.id}/export`)).json().workflow).toEqual(workflow);
  });

  it('keeps a created flow to its owner: another user gets 404 and does not list it', async () => {
    const flow = (
      await alice.post('/api/ai/create-from-json', {
        workflowJSON: { ...threeSteps, name: 'Riêng của Alice' },
      })
    ).json();
    expect((await bob.get(`/api/flows/${flow.id}`)).statusCode).toBe(404);
    expect((await bob.get(`/api/flows/${flow.id}/steps`)).statusCode).toBe(404);
    expect(await flowNames(bob)).not.toContain('Riêng của Alice');
  });
});

describe('AI workflow generation through Gemini (the fake Gemini API)', () => {
  let fake: FakeGemini;
  let t: TestApp;
  let alice: Client;
  const answer = {
    name: 'Onboarding nhân viên mới',
    description: 'Quy trình chào đón nhân viên mới',
    steps: [
      {
        name: 'Checklist',
        order: 1,
        systemPrompt: 'Tạo checklist',
        outputMode: 'single',
        requiresUserInput: true,
        inputSources: [],
      },
      {
        name: 'Email chào mừng',
        order: 2,
        systemPrompt: 'Viết email từ [[step-1]]',
        outputMode: 'multiple',
        requiresUserInput: false,
        inputSources: ['step-1'],
      },
    ],
  };

  beforeAll(async () => {
    fake = await startFakeGemini({ respond: () => ({ text: JSON.stringify(answer) }) });
    t = await createTestApp({ geminiApiKey: 'server-key', geminiBaseUrl: fake.url, modelCallsPerMinute: 3 });
    alice = as(t.app, (await signUp(t.app, 'Alice')).cookie);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it("returns the model's workflow, asked for in JSON mode with the server's key", async () => {
    const response = await alice.post('/api/ai/generate-workflow', {
      description: 'Onboarding cho nhân viên mới',
      includeTemplateHints: true,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ workflow: answer });
    const request = fake.requests.at(-1)!;
    expect(request.apiKey).toBe('server-key');
    expect(promptOf(request.body)).toBe('Onboarding cho nhân viên mới');
    expect(request.body.generationConfig).toMatchObject({ responseMimeType: 'application/json' });
    expect(request.body.systemInstruction?.parts?.[0]?.text).toContain('Phân tích chiến lược kinh doanh');
  });

  it('answers 502 with the reason when the model gives no workflow', async () => {
    fake.respondWith(() => ({ text: 'Sorry, I cannot help with that.' }));
    const response = await alice.post('/api/ai/generate-workflow', { description: 'Anything' });
    expect(response.statusCode).toBe(502);
    expect(response.json()).toMatchObject({
      message: "The model's answer is not a usable workflow (not JSON). Try again.",
      retryable: true,
    });
  });

  it("uses the user's own active key before the server's", async () => {
    const chi = as(t.app, (await signUp(t.app, 'Chi')).cookie);
    const added = await chi.post('/api/user/api-keys', {
      keyName: 'Mine',
      apiKey: 'AIza-own-key',
      keyType: 'gemini',
    });
    expect(added.statusCode).toBeLessThan(300);
    fake.respondWith(() => ({ text: JSON.stringify(answer) }));
    expect((await chi.post('/api/ai/generate-workflow', { description: 'Onboarding' })).statusCode).toBe(200);
    expect(fake.requests.at(-1)!.apiKey).toBe('AIza-own-key');
  });

  it('limits generation per user like step runs (429 past MODEL_CALLS_PER_MINUTE)', async () => {
    const bob = as(t.app, (await signUp(t.app, 'Bob')).cookie);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await bob.post('/api/ai/generate-workflow', { description: `Thử ${i}` })).statusCode);
    }
    expect(statuses.slice(0, 3).every((status) => status !== 429)).toBe(true);
    expect(statuses[3]).toBe(429);
  });
});
