import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeGemini, promptOf, startFakeGemini } from '../../test/support/fake-gemini';
import { workflowJsonSchema } from '../domain/workflow-json';
import { createGeminiProvider } from './gemini-provider';
import { ModelCallError } from './model-provider';
import { createOfflineProvider } from './offline-provider';
import { generateWorkflow, WORKFLOW_RESPONSE_SCHEMA } from './workflow-generation';

const offline = createOfflineProvider();

describe('generateWorkflow with the offline model', () => {
  const description =
    'Lên kế hoạch ra mắt quán cà phê sách ở Đà Lạt cho sinh viên. Ngân sách nhỏ, mở cửa trong 2 tháng.';

  it('gives a valid 3-step workflow built from the description, labelled as the offline model', async () => {
    const workflow = await generateWorkflow(offline, description);
    expect(workflowJsonSchema.safeParse(workflow).success).toBe(true);
    expect(workflow.name).toBe('Lên kế hoạch ra mắt quán cà phê sách ở Đà Lạt cho sinh viên');
    expect(workflow.description.startsWith('[Offline model]')).toBe(true);
    expect(workflow.description).toContain('quán cà phê sách ở Đà Lạt');
    expect(workflow.steps.map((s) => [s.order, s.name, s.outputMode, s.inputSources])).toEqual([
      [1, 'Phân tích yêu cầu', 'single', []],
      [2, 'Đề xuất phương án', 'multiple', ['step-1']],
      [3, 'Kế hoạch thực hiện', 'single', ['step-1', 'step-2']],
    ]);
    expect(workflow.steps[0]!.systemPrompt).toContain('quán cà phê sách ở Đà Lạt');
    expect(workflow.steps[1]!.systemPrompt).toContain('[[step-1]]');
    expect(workflow.steps[2]!.systemPrompt).toContain('[[step-1]]');
    expect(workflow.steps[2]!.systemPrompt).toContain('[[step-2]]');
  });

  it('is deterministic and answers an English description in English', async () => {
    const english = 'Write a weekly newsletter for a bicycle repair shop. Friendly tone.';
    const first = await generateWorkflow(offline, english);
    expect(await generateWorkflow(offline, english)).toEqual(first);
    expect(first.name).toBe('Write a weekly newsletter for a bicycle repair shop');
    expect(first.steps.map((s) => s.name)).toEqual(['Analyse the request', 'Propose options', 'Action plan']);
    expect(first.steps[0]!.systemPrompt).toContain(
      'Pay particular attention to: newsletter, friendly, bicycle.',
    );
  });

  it('names the workflow from the first paragraph only, not from later wishes or a quoted conversation', async () => {
    const described =
      'Plan a tea tasting evening\n\n- fewer steps\n\nConversation:\n\nUser: Plan a tea tasting evening';
    expect((await generateWorkflow(offline, described)).name).toBe('Plan a tea tasting evening');
  });
});

describe('generateWorkflow with Gemini (the real SDK against the fake API)', () => {
  let fake: FakeGemini;
  beforeAll(async () => {
    fake = await startFakeGemini();
  });
  afterAll(() => fake.close());
  const gemini = () => createGeminiProvider({ apiKey: 'k', model: 'gemini-2.5-flash', baseUrl: fake.url });

  it('asks in JSON mode with the workflow schema and the description as the prompt', async () => {
    const answer = {
      name: 'Tuyển dụng',
      description: 'Quy trình tuyển dụng lập trình viên',
      steps: [
        {
          name: 'Mô tả công việc',
          order: 1,
          systemPrompt: 'Viết JD',
          outputMode: 'single',
          requiresUserInput: true,
          inputSources: [],
        },
        {
          name: 'Câu hỏi phỏng vấn',
          order: 2,
          systemPrompt: 'Từ [[step-1]]',
          outputMode: 'multiple',
          requiresUserInput: false,
          inputSources: ['step-1'],
        },
      ],
    };
    fake.respondWith(() => ({ text: JSON.stringify(answer) }));
    const workflow = await generateWorkflow(gemini(), 'Tuyển lập trình viên', {
      includeTemplateHints: true,
    });
    expect(workflow).toEqual(answer);
    const request = fake.requests.at(-1)!;
    expect(promptOf(request.body)).toBe('Tuyển lập trình viên');
    expect(request.body.generationConfig).toMatchObject({
      responseMimeType: 'application/json',
      responseJsonSchema: WORKFLOW_RESPONSE_SCHEMA,
    });
    expect(request.body.systemInstruction?.parts?.[0]?.text).toMatch(
      /\[\[step-N\]\][\s\S]*Examples[\s\S]*- Sáng tạo nội dung marketing:[\s\S]*3\. Nội dung đa kênh \(multiple, inputSources step-1, step-2\)/,
    );
  });

  it('puts a sloppy answer right: fenced JSON, shuffled orders, forward and unknown references', async () => {
    const answer = {
      workflow: {
        name: 'Plan',
        steps: [
          {
            name: 'Third',
            order: 30,
            systemPrompt: 'c',
            outputMode: 'loop',
            inputSources: ['step-10', 'step-20'],
          },
          { name: 'First', order: 10, systemPrompt: 'a', outputMode: 'single', inputSources: ['step-30'] },
          {
            name: 'Second',
            order: 20,
            systemPrompt: 'b',
            outputMode: 'multiple',
            inputSources: ['step-10', 'x', 'step-99'],
          },
        ],
      },
    };
    fake.respondWith(() => ({ text: `\`\`\`json\n${JSON.stringify(answer)}\n\`\`\`` }));
    const workflow = await generateWorkflow(gemini(), 'plan');
    expect(workflow.description).toBe('Plan');
    expect(workflow.steps).toEqual([
      {
        name: 'First',
        order: 1,
        systemPrompt: 'a',
        outputMode: 'single',
        requiresUserInput: false,
        inputSources: [],
      },
      {
        name: 'Second',
        order: 2,
        systemPrompt: 'b',
        outputMode: 'multiple',
        requiresUserInput: false,
        inputSources: ['step-1'],
      },
      {
        name: 'Third',
        order: 3,
        systemPrompt: 'c',
        outputMode: 'single',
        requiresUserInput: false,
        inputSources: ['step-1', 'step-2'],
      },
    ]);
  });

  it('refuses an answer that is not JSON or has no steps, as a retryable model failure', async () => {
    for (const text of ['Here is your workflow: step one...', '{"name": "Empty", "steps": []}']) {
      fake.respondWith(() => ({ text }));
      const error = await generateWorkflow(gemini(), 'anything').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ModelCallError);
      expect(error).toMatchObject({
        retryable: true,
        message: expect.stringMatching(/not a usable workflow/),
      });
    }
  });

  it('passes a failed call on as the model failure it is', async () => {
    fake.respondWith(() => ({ status: 429, message: 'quota' }));
    await expect(generateWorkflow(gemini(), 'anything')).rejects.toMatchObject({
      status: 429,
      retryable: true,
    });
  });
});
