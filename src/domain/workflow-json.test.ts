import { describe, expect, it } from 'vitest';
import { inputSourceIds, referencedOrder, workflowInImport, workflowJsonSchema } from './workflow-json';

const step = (order: number, inputSources: string[] = []) => ({
  name: `Step ${order}`,
  order,
  systemPrompt: `Prompt ${order}`,
  outputMode: 'single' as const,
  inputSources,
});

describe('Workflow JSON', () => {
  it("reads 'step-N' and 'step_N' references, and nothing else", () => {
    expect(referencedOrder('step-3')).toBe(3);
    expect(referencedOrder(' Step_12 ')).toBe(12);
    expect(referencedOrder('step-')).toBeNull();
    expect(referencedOrder('Research')).toBeNull();
  });

  it('fills the defaults of optional fields', () => {
    const workflow = workflowJsonSchema.parse({
      name: ' Plan ',
      steps: [{ ...step(1), inputSources: undefined }],
    });
    expect(workflow).toEqual({
      name: 'Plan',
      description: '',
      steps: [
        {
          name: 'Step 1',
          order: 1,
          systemPrompt: 'Prompt 1',
          outputMode: 'single',
          requiresUserInput: false,
          inputSources: [],
          choices: [],
          maxLoopIterations: 1,
        },
      ],
    });
  });

  it('accepts only earlier steps as input sources, wherever the steps stand in the list', () => {
    const valid = workflowJsonSchema.safeParse({ name: 'W', steps: [step(3, ['step-1']), step(1)] });
    expect(valid.success).toBe(true);
    const issues = (steps: unknown[]) =>
      workflowJsonSchema
        .safeParse({ name: 'W', steps })
        .error?.issues.map((i) => [i.path.join('.'), i.message]);
    expect(issues([step(1), step(2, ['step-2'])])).toEqual([
      [
        'steps.1.inputSources.0',
        'Step 2 "Step 2": input source \'step-2\' không phải step đứng trước (input source chỉ được là các step đứng trước)',
      ],
    ]);
    expect(issues([step(1, ['step-4'])])).toEqual([
      [
        'steps.0.inputSources.0',
        'Step 1 "Step 1": input source \'step-4\' không trỏ tới step nào của workflow này',
      ],
    ]);
    expect(issues([step(2), step(2)])).toEqual([
      ['steps.1.order', 'hai step cùng order 2; mỗi step cần một order riêng'],
    ]);
  });

  it('maps references to the created ids, each once', () => {
    const [, second] = workflowJsonSchema.parse({
      name: 'W',
      steps: [step(1), step(2, ['step-1', 'step_1'])],
    }).steps;
    expect(inputSourceIds(second!, new Map([[1, 'id-1']]))).toEqual(['id-1']);
  });

  it('finds the workflow of an import: a flows list, a workflow, or an export answer', () => {
    const workflow = { name: 'W', steps: [] };
    expect(workflowInImport({ flows: [workflow, { name: 'X', steps: [] }] })).toBe(workflow);
    expect(workflowInImport(workflow)).toBe(workflow);
    expect(workflowInImport({ workflow })).toBe(workflow);
    const nameless = { steps: [] };
    expect(workflowInImport({ flows: [nameless] })).toBe(nameless);
    for (const value of [null, [], 'text', { flows: [] }, { flows: [{ name: 'no steps' }] }, { name: 'W' }]) {
      expect(workflowInImport(value)).toBeNull();
    }
  });
});
