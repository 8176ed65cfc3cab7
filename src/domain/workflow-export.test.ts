import { describe, expect, it } from 'vitest';
import { aStep } from './execution/testing';
import { workflowOf } from './workflow-export';
import { workflowJsonSchema } from './workflow-json';

const flow = { name: 'Blog về trà', description: 'Ý tưởng rồi bài viết' };

describe('workflowOf', () => {
  it('writes each step with its order and its input sources as step-N references', () => {
    const ideas = aStep(1, { name: 'Ideas', systemPrompt: 'List ideas.', requiresUserInput: true });
    const draft = aStep(2, {
      name: 'Draft',
      systemPrompt: 'Write from [[step-1]]',
      inputSources: [ideas.id],
    });
    expect(workflowOf(flow, [ideas, draft])).toEqual({
      name: 'Blog về trà',
      description: 'Ý tưởng rồi bài viết',
      steps: [
        {
          name: 'Ideas',
          order: 1,
          systemPrompt: 'List ideas.',
          outputMode: 'single',
          requiresUserInput: true,
          inputSources: [],
        },
        {
          name: 'Draft',
          order: 2,
          systemPrompt: 'Write from [[step-1]]',
          outputMode: 'single',
          requiresUserInput: false,
          inputSources: ['step-1'],
        },
      ],
    });
  });

  it('keeps choices only for multiple_choice and the iteration count only for loop', () => {
    const pick = aStep(1, { outputMode: 'multiple_choice', choices: ['Ngắn', 'Dài'] });
    const polish = aStep(2, { outputMode: 'loop', maxLoopIterations: 3, choices: ['stale'] });
    const many = aStep(3, { outputMode: 'multiple', maxLoopIterations: 1 });
    const workflow = workflowOf(flow, [pick, polish, many]);
    // What an export gives, creating a flow from JSON accepts.
    expect(workflowJsonSchema.safeParse(workflow).success).toBe(true);
    const [a, b, c] = workflow.steps;
    expect(a).toMatchObject({ outputMode: 'multiple_choice', choices: ['Ngắn', 'Dài'] });
    expect(a).not.toHaveProperty('maxLoopIterations');
    expect(b).toMatchObject({ outputMode: 'loop', maxLoopIterations: 3 });
    expect(b).not.toHaveProperty('choices');
    expect(c).not.toHaveProperty('choices');
    expect(c).not.toHaveProperty('maxLoopIterations');
  });

  it('leaves out blank choices, the empty rows of the editor, so the export is created from JSON again', () => {
    const pick = aStep(1, { outputMode: 'multiple_choice', choices: ['Ngắn', '', '  ', '\u200b', 'Dài'] });
    const workflow = workflowOf(flow, [pick]);
    expect(workflow.steps[0]).toMatchObject({ choices: ['Ngắn', 'Dài'] });
    expect(workflowJsonSchema.safeParse(workflow).success).toBe(true);
  });

  it('sorts by order, keeps stored orders that prompts refer to, and drops sources of no step', () => {
    const first = aStep(2, { name: 'First' });
    const last = aStep(5, { name: 'Last', inputSources: [first.id, 'gone-id', first.id] });
    const workflow = workflowOf(flow, [last, first]);
    expect(workflow.steps.map((s) => [s.name, s.order, s.inputSources])).toEqual([
      ['First', 2, []],
      ['Last', 5, ['step-2']],
    ]);
  });
});
