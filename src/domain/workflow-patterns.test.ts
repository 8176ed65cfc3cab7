import { describe, expect, it } from 'vitest';
import type { OutputMode, StepSnapshot } from './flow';
import {
  detectWorkflowPatterns,
  type FlowUsage,
  LONG_FLOW_STEPS,
  type StepUsage,
  stepShapeName,
} from './workflow-patterns';

const step = (id: string, order: number, name: string, outputMode: OutputMode = 'single'): StepSnapshot => ({
  id,
  order,
  name,
  systemPrompt: `${name} prompt`,
  outputMode,
  inputSources: [],
  choices: [],
  loopTargetStepId: null,
  maxLoopIterations: 1,
  requiresUserInput: false,
});

const history = (stepId: string, fields: Partial<StepUsage> = {}): StepUsage => ({
  stepId,
  runs: 1,
  reruns: 0,
  edits: 0,
  rejections: 0,
  latestEdit: null,
  latestRejection: null,
  ...fields,
});

const flow = (
  id: string,
  name: string,
  steps: StepSnapshot[],
  executions = 1,
  stepHistory: StepUsage[] = steps.map((s) => history(s.id)),
): FlowUsage => ({ id, name, description: `${name} flow`, steps, executions, stepHistory });

describe('workflow pattern detection', () => {
  it('finds nothing in flows that run cleanly and share no steps', () => {
    expect(
      detectWorkflowPatterns([
        flow('f1', 'Blog', [step('a', 1, 'Research'), step('b', 2, 'Draft')]),
        flow('f2', 'Mail', [step('c', 1, 'Collect')]),
      ]),
    ).toEqual([]);
    expect(detectWorkflowPatterns([])).toEqual([]);
  });

  it('finds a step shape repeated across flows, whatever its case, spacing or numbering', () => {
    expect(stepShapeName('  Research  2 ')).toBe('research');
    expect(stepShapeName('Phân tích: thị trường')).toBe('phân tích thị trường');
    const patterns = detectWorkflowPatterns([
      flow('f1', 'Blog', [step('a', 1, 'Research'), step('b', 2, 'research')]),
      flow('f2', 'Mail', [step('c', 1, 'research 2')]),
      // The same name with another output mode is another shape.
      flow('f3', 'Ideas', [step('d', 1, 'Research', 'multiple')]),
    ]);
    expect(patterns).toEqual([
      {
        type: 'repeated_step_shape',
        key: 'repeated_step_shape:research|single',
        data: {
          stepName: 'Research',
          outputMode: 'single',
          occurrences: [
            { flowId: 'f1', flowName: 'Blog', stepId: 'a', stepOrder: 1, stepName: 'Research' },
            { flowId: 'f2', flowName: 'Mail', stepId: 'c', stepOrder: 1, stepName: 'research 2' },
          ],
        },
      },
    ]);
  });

  it('finds steps whose results are reworked, from the threshold on, with the latest correction', () => {
    const steps = [step('a', 1, 'Draft'), step('b', 2, 'Polish')];
    const latestEdit = { before: 'old', after: 'new' };
    const patterns = detectWorkflowPatterns([
      flow('f1', 'Blog', steps, 2, [
        history('a', { edits: 1, rejections: 1, latestEdit, latestRejection: 'nope' }),
        history('b', { edits: 1 }),
      ]),
    ]);
    expect(patterns).toEqual([
      {
        type: 'reworked_step',
        key: 'reworked_step:a',
        data: {
          flowId: 'f1',
          flowName: 'Blog',
          stepId: 'a',
          stepOrder: 1,
          stepName: 'Draft',
          edits: 1,
          rejections: 1,
          latestEdit,
          latestRejection: 'nope',
        },
      },
    ]);
  });

  it('finds single-output steps run again within executions, but not other modes', () => {
    const steps = [step('a', 1, 'Outline'), step('b', 2, 'Headlines', 'multiple'), step('c', 3, 'Intro')];
    const patterns = detectWorkflowPatterns([
      flow('f1', 'Blog', steps, 3, [
        history('a', { runs: 5, reruns: 2 }),
        history('b', { runs: 9, reruns: 6 }),
        history('c', { runs: 3, reruns: 1 }),
      ]),
    ]);
    expect(patterns.map((p) => [p.type, p.key])).toEqual([['rerun_single_step', 'rerun_single_step:a']]);
    expect(patterns[0]!.data).toMatchObject({ stepName: 'Outline', runs: 5, reruns: 2 });
  });

  it('finds flows never run (with steps) and long flows', () => {
    const long = Array.from({ length: LONG_FLOW_STEPS }, (_, i) =>
      step(`l${i}`, i + 1, `Part ${'abcdefgh'[i]}`),
    );
    const patterns = detectWorkflowPatterns([
      flow('f1', 'Empty', [], 0),
      flow('f2', 'Idle', [step('a', 1, 'Only')], 0),
      flow('f3', 'Saga', long, 4),
      flow(
        'f4',
        'Short',
        long.slice(0, LONG_FLOW_STEPS - 1).map((s) => ({ ...s, id: `s-${s.id}`, name: `Short ${s.name}` })),
        1,
      ),
    ]);
    expect(patterns.map((p) => [p.type, p.key, p.data])).toEqual([
      ['unused_flow', 'unused_flow:f2', { flowId: 'f2', flowName: 'Idle', stepCount: 1 }],
      ['long_flow', 'long_flow:f3', { flowId: 'f3', flowName: 'Saga', stepCount: LONG_FLOW_STEPS }],
    ]);
  });
});
