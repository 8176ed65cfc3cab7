import { describe, expect, it } from 'vitest';
import type { OutputMode, StepSnapshot } from '../domain/flow';
import { detectWorkflowPatterns, type FlowUsage, type StepUsage } from '../domain/workflow-patterns';
import { recommendationDraftSchema } from '../domain/workflow-recommendations';
import { offlineWorkflowRecommendations } from './offline-workflow-recommendations';

const step = (
  id: string,
  order: number,
  name: string,
  systemPrompt: string,
  outputMode: OutputMode = 'single',
) =>
  ({
    id,
    order,
    name,
    systemPrompt,
    outputMode,
    inputSources: [],
    choices: [],
    loopTargetStepId: null,
    maxLoopIterations: 1,
    requiresUserInput: false,
  }) satisfies StepSnapshot;

const quiet = (stepId: string, fields: Partial<StepUsage> = {}): StepUsage => ({
  stepId,
  runs: 1,
  reruns: 0,
  edits: 0,
  rejections: 0,
  latestEdit: null,
  latestRejection: null,
  ...fields,
});

function flow(
  id: string,
  name: string,
  steps: StepSnapshot[],
  executions: number,
  history: StepUsage[] = [],
) {
  return {
    id,
    name,
    description: `${name} description`,
    steps,
    executions,
    stepHistory: steps.map((s) => history.find((h) => h.stepId === s.id) ?? quiet(s.id)),
  } satisfies FlowUsage;
}

const recommend = (flows: FlowUsage[], builtinWorkflows = []) =>
  offlineWorkflowRecommendations({ flows, patterns: detectWorkflowPatterns(flows), builtinWorkflows });

describe('offline workflow recommendations', () => {
  const blog = flow(
    'f-blog',
    'Blog',
    [
      step('b1', 1, 'Research', 'Research tea.'),
      step('b2', 2, 'Outline', 'Outline [[step-1]].'),
      step('b3', 3, 'Draft', 'Draft from [[step-2]].'),
    ],
    2,
    [
      quiet('b2', { runs: 6, reruns: 4 }),
      quiet('b3', { edits: 3, rejections: 1, latestEdit: { before: 'Tea.', after: 'Green tea, gently.' } }),
    ],
  );
  const mail = flow(
    'f-mail',
    'Mail',
    [step('m1', 1, 'research', 'Collect news.'), step('m2', 2, 'Write', 'Write [[step-1]].')],
    0,
  );

  it('makes valid recommendations, each naming the flow it comes from and saying it is the offline model', () => {
    const drafts = recommend([blog, mail]);
    for (const draft of drafts) {
      expect(recommendationDraftSchema.parse(draft)).toEqual(draft);
      expect(draft.description).toMatch(/^\[Offline model\] /);
      expect(draft.tags).toContain('offline-model');
      expect(draft.description).toMatch(/Blog|Mail/);
    }
    expect(drafts.map((d) => [d.recommendationType, d.priority, d.baseFlowId])).toEqual([
      ['optimization', 'high', 'f-blog'],
      ['automation', 'high', 'f-blog'],
      ['template', 'medium', 'f-blog'],
      ['enhancement', 'low', 'f-mail'],
    ]);
    expect(recommend([blog, mail])).toEqual(drafts);
  });

  it('puts the latest correction into the reworked step and asks re-run steps for alternatives', () => {
    const [sharpen, alternatives] = recommend([blog, mail]);
    expect(sharpen!.title).toBe('Làm rõ step "Draft" của "Blog"');
    expect(sharpen!.recommendedSteps.map((s) => s.name)).toEqual(['Research', 'Outline', 'Draft']);
    expect(sharpen!.recommendedSteps[2]!.systemPrompt).toContain('Draft from [[step-2]].');
    expect(sharpen!.recommendedSteps[2]!.systemPrompt).toContain('"Green tea, gently."');
    expect(sharpen!.estimatedTimeReduction).toBe(20);
    expect(alternatives!.recommendedSteps[1]).toMatchObject({ name: 'Outline', outputMode: 'multiple' });
    expect(alternatives!.recommendedSteps[0]).toMatchObject({ name: 'Research', outputMode: 'single' });
  });

  it('moves the references of a never-run flow down behind its new brief', () => {
    const brief = recommend([blog, mail]).find((d) => d.baseFlowId === 'f-mail')!;
    expect(brief.recommendedSteps.map((s) => [s.order, s.name, s.systemPrompt])).toEqual([
      [1, 'Brief cho Mail', expect.stringContaining('"Mail"')],
      [2, 'research', 'Collect news.'],
      [3, 'Write', 'Write [[step-2]].'],
    ]);
  });

  it('splits a long flow and hands over to the rest with a summary', () => {
    const steps = Array.from({ length: 7 }, (_, i) =>
      step(`s${i}`, i + 1, `Stage ${'ABCDEFG'[i]}`, `Do ${i + 1}.`),
    );
    const [split] = recommend([flow('f-long', 'Saga', steps, 1)]);
    expect(split!.title).toBe('Tách "Saga" thành hai flow ngắn hơn');
    expect(split!.recommendedSteps.map((s) => s.name)).toEqual([
      'Stage A',
      'Stage B',
      'Stage C',
      'Stage D',
      'Tóm tắt bàn giao',
    ]);
    expect(split!.recommendedSteps[4]!.systemPrompt).toContain('[[step-4]]');
  });

  it('with nothing to fix, adds a review step to the latest flow; with no flows, offers the built-in templates', () => {
    const [review] = recommend([flow('f-calm', 'Calm', [step('c1', 1, 'Answer', 'Answer it.')], 3)]);
    expect(review).toMatchObject({ recommendationType: 'enhancement', baseFlowId: 'f-calm' });
    expect(review!.recommendedSteps.at(-1)).toMatchObject({ order: 2, name: 'Review' });
    expect(review!.recommendedSteps.at(-1)!.systemPrompt).toContain('[[step-1]]');

    const builtins = offlineWorkflowRecommendations({
      flows: [],
      patterns: [],
      builtinWorkflows: [
        {
          name: 'Starter',
          description: 'A starter workflow',
          steps: [{ name: 'One', order: 1, systemPrompt: 'First.', outputMode: 'single' }],
        },
      ],
    });
    expect(builtins).toHaveLength(1);
    expect(builtins[0]).toMatchObject({ recommendationType: 'template', baseFlowId: null });
    expect(builtins[0]!.title).toContain('Starter');
  });
});
