import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Step } from '../src/domain/flow';
import type { WorkflowJsonInput } from '../src/domain/workflow-json';
import { scriptedModel } from './support/scripted-model';
import { as, type Client, createTestApp, signUp, type TestApp } from './support/test-app';

/** A step as its configuration reads back, input sources as the orders of the steps they name. */
function configurationOf(steps: Step[]) {
  const orderOf = new Map(steps.map((step) => [step.id, step.order]));
  return steps.map((step) => ({
    order: step.order,
    name: step.name,
    systemPrompt: step.systemPrompt,
    outputMode: step.outputMode,
    inputSources: step.inputSources.map((id) => orderOf.get(id)),
    choices: step.choices,
    loopTarget: step.loopTargetStepId === null ? null : orderOf.get(step.loopTargetStepId),
    maxLoopIterations: step.maxLoopIterations,
    requiresUserInput: step.requiresUserInput,
  }));
}

/** Four steps using every part of a step's configuration. */
const workflow = {
  name: 'Chuyến đi Đà Lạt',
  description: 'Lên kế hoạch một chuyến đi',
  steps: [
    {
      name: 'Ý tưởng',
      order: 1,
      systemPrompt: 'Gợi ý điểm đến cho: ',
      outputMode: 'multiple',
      requiresUserInput: true,
      inputSources: [],
    },
    {
      name: 'Chọn kiểu',
      order: 2,
      systemPrompt: 'Chọn kiểu chuyến đi cho [[step-1]]',
      outputMode: 'multiple_choice',
      requiresUserInput: false,
      inputSources: ['step-1'],
      choices: ['Nghỉ dưỡng', 'Khám phá'],
    },
    {
      name: 'Lịch trình',
      order: 3,
      systemPrompt: 'Viết lịch trình từ [[step-1]] và [[step-2]]',
      outputMode: 'loop',
      requiresUserInput: false,
      inputSources: ['step-1', 'step-2'],
      maxLoopIterations: 4,
    },
    {
      name: 'Tóm tắt',
      order: 4,
      systemPrompt: 'Tóm tắt [[step-3]]',
      outputMode: 'single',
      requiresUserInput: true,
      inputSources: ['step-3'],
    },
  ],
} satisfies WorkflowJsonInput;

/** What the workflow above reads back as once created: a loop repeats itself, and only a choice step keeps choices. */
const expectedConfiguration = [
  {
    order: 1,
    name: 'Ý tưởng',
    systemPrompt: 'Gợi ý điểm đến cho: ',
    outputMode: 'multiple',
    inputSources: [],
    choices: [],
    loopTarget: null,
    maxLoopIterations: 1,
    requiresUserInput: true,
  },
  {
    order: 2,
    name: 'Chọn kiểu',
    systemPrompt: 'Chọn kiểu chuyến đi cho [[step-1]]',
    outputMode: 'multiple_choice',
    inputSources: [1],
    choices: ['Nghỉ dưỡng', 'Khám phá'],
    loopTarget: null,
    maxLoopIterations: 1,
    requiresUserInput: false,
  },
  {
    order: 3,
    name: 'Lịch trình',
    systemPrompt: 'Viết lịch trình từ [[step-1]] và [[step-2]]',
    outputMode: 'loop',
    inputSources: [1, 2],
    choices: [],
    loopTarget: 3,
    maxLoopIterations: 4,
    requiresUserInput: false,
  },
  {
    order: 4,
    name: 'Tóm tắt',
    systemPrompt: 'Tóm tắt [[step-3]]',
    outputMode: 'single',
    inputSources: [3],
    choices: [],
    loopTarget: null,
    maxLoopIterations: 1,
    requiresUserInput: true,
  },
];

describe('a flow created with its steps keeps their whole configuration, on every path', () => {
  const model = scriptedModel();
  let t: TestApp;
  let lan: Client;

  beforeAll(async () => {
    t = await createTestApp({}, { resolveModel: () => ({ provider: model.provider, keySource: 'default' }) });
    lan = as(t.app, (await signUp(t.app, 'Lan')).cookie);
  });
  afterAll(() => t.close());

  const stepsOf = async (flowId: string) => (await lan.get(`/api/flows/${flowId}/steps`)).json() as Step[];
  const exported = async (flowId: string) => (await lan.get(`/api/flows/${flowId}/export`)).json().workflow;

  it('new flow, then its steps one by one (the flow editor)', async () => {
    const flow = (
      await lan.post('/api/flows', { name: workflow.name, description: workflow.description })
    ).json();
    const ids: string[] = [];
    for (const step of workflow.steps) {
      const created = await lan.post('/api/steps', {
        flowId: flow.id,
        order: step.order,
        name: step.name,
        systemPrompt: step.systemPrompt,
        outputMode: step.outputMode,
        inputSources: step.inputSources.map((source) => ids[Number(source.slice('step-'.length)) - 1]),
        choices: 'choices' in step ? step.choices : [],
        maxLoopIterations: 'maxLoopIterations' in step ? step.maxLoopIterations : 1,
        requiresUserInput: step.requiresUserInput,
      });
      expect(created.statusCode).toBe(201);
      ids.push(created.json().id);
    }
    expect(configurationOf(await stepsOf(flow.id))).toEqual(expectedConfiguration);
    expect(await exported(flow.id)).toEqual(workflow);
  });

  it('Workflow JSON (import, and create from JSON)', async () => {
    const response = await lan.post('/api/ai/create-from-json', { workflowJSON: workflow });
    expect(response.statusCode).toBe(201);
    const flow = response.json();
    expect(configurationOf(await stepsOf(flow.id))).toEqual(expectedConfiguration);
    // Exported and imported again, it is the same flow.
    const copy = (
      await lan.post('/api/ai/create-from-json', { workflowJSON: await exported(flow.id) })
    ).json();
    expect(configurationOf(await stepsOf(copy.id))).toEqual(expectedConfiguration);
    expect(await exported(copy.id)).toEqual(workflow);
  });

  /** What the model proposes: single and multiple steps only, some reading earlier ones, one asking for input. */
  const generated = {
    name: 'Bài blog',
    description: 'Viết một bài blog',
    steps: [
      {
        name: 'Chủ đề',
        order: 1,
        systemPrompt: 'Chọn chủ đề',
        outputMode: 'multiple',
        requiresUserInput: true,
        inputSources: [],
      },
      {
        name: 'Dàn ý',
        order: 2,
        systemPrompt: 'Dàn ý cho [[step-1]]',
        outputMode: 'single',
        requiresUserInput: false,
        inputSources: ['step-1'],
      },
      {
        name: 'Bài viết',
        order: 3,
        systemPrompt: 'Viết bài từ [[step-1]] và [[step-2]]',
        outputMode: 'single',
        requiresUserInput: true,
        inputSources: ['step-1', 'step-2'],
      },
    ],
  };
  const generatedConfiguration = [
    { order: 1, outputMode: 'multiple', inputSources: [], requiresUserInput: true },
    { order: 2, outputMode: 'single', inputSources: [1], requiresUserInput: false },
    { order: 3, outputMode: 'single', inputSources: [1, 2], requiresUserInput: true },
  ].map((step) => ({ ...step, choices: [], loopTarget: null, maxLoopIterations: 1 }));

  it('the AI creator: a generated workflow, saved', async () => {
    model.answers.push(JSON.stringify(generated));
    const { workflow: proposed } = (
      await lan.post('/api/ai/generate-workflow', { description: 'Viết blog', includeTemplateHints: true })
    ).json();
    expect(proposed).toEqual(generated);
    const flow = (await lan.post('/api/ai/create-from-json', { workflowJSON: proposed })).json();
    expect(configurationOf(await stepsOf(flow.id))).toMatchObject(generatedConfiguration);
    expect(await exported(flow.id)).toEqual(generated);
  });

  it('the AI flow creator: a proposal, confirmed and saved', async () => {
    model.answers.push(JSON.stringify(generated));
    const { proposal } = (
      await lan.post('/api/ai/flow-creator/proposal', { conversationHistory: 'User: Viết blog' })
    ).json();
    expect(proposal).toEqual(generated);
    const flow = (await lan.post('/api/ai/create-from-json', { workflowJSON: proposal })).json();
    expect(configurationOf(await stepsOf(flow.id))).toMatchObject(generatedConfiguration);
    expect(await exported(flow.id)).toEqual(generated);
  });

  it('a recommendation, implemented', async () => {
    // A model's recommendation may use every part of a step's configuration; it is created as shown.
    const recommendedSteps = workflow.steps.map((step) => ({ ...step, reasoning: `why ${step.order}` }));
    model.answers.push(
      JSON.stringify({
        recommendations: [
          {
            recommendationType: 'automation',
            title: 'Báo cáo tuần',
            description: 'Tự động hoá báo cáo tuần',
            category: 'productivity',
            priority: 'high',
            confidence: 80,
            baseFlowId: '',
            recommendedSteps,
            benefits: ['Nhanh hơn'],
            implementationComplexity: 'low',
            tags: ['report'],
          },
        ],
      }),
    );
    const { recommendations } = (await lan.post('/api/recommendations/generate')).json();
    const response = await lan.post(`/api/recommendations/${recommendations[0].id}/implement`);
    expect(response.statusCode).toBe(201);
    const flow = response.json();
    expect(configurationOf(await stepsOf(flow.id))).toEqual(expectedConfiguration);
    expect(await exported(flow.id)).toMatchObject({ steps: expect.any(Array) });
  });
});
