import { describe, expect, it } from 'vitest';
import { BUILTIN_TEMPLATES, builtinTemplate } from './builtin-templates';
import { referencedOrder, workflowJsonSchema } from './workflow-json';

describe('built-in templates', () => {
  it('are the three the product ships, with distinct ids', () => {
    expect(BUILTIN_TEMPLATES.map((t) => t.id)).toEqual([
      'business-strategy',
      'marketing-content',
      'product-research',
    ]);
    expect(builtinTemplate('marketing-content')?.workflow.name).toBe('Sáng tạo nội dung marketing');
    expect(builtinTemplate('nope')).toBeUndefined();
  });

  for (const template of BUILTIN_TEMPLATES) {
    describe(template.id, () => {
      const workflow = workflowJsonSchema.parse(template.workflow);

      it('is valid Workflow JSON with 3 steps in order 1..3', () => {
        expect(workflow.steps.map((s) => s.order)).toEqual([1, 2, 3]);
        expect(workflow.description.length).toBeGreaterThan(20);
      });

      it('builds each step on the earlier ones only, through [[step-N]] and its input sources', () => {
        for (const step of workflow.steps) {
          const sources = step.inputSources.map((source) => referencedOrder(source)!);
          const placeholders = [...step.systemPrompt.matchAll(/\[\[step-(\d+)\]\]/g)].map((m) =>
            Number(m[1]),
          );
          for (const order of [...sources, ...placeholders]) expect(order).toBeLessThan(step.order);
          expect(new Set(placeholders)).toEqual(new Set(sources));
          expect(step.systemPrompt.length).toBeGreaterThan(150);
        }
        expect(workflow.steps[1]!.inputSources).toEqual(['step-1']);
        expect(workflow.steps[2]!.inputSources).toEqual(['step-1', 'step-2']);
      });
    });
  }

  it('asks for 3 to 5 competitors and gives multichannel content as several results', () => {
    expect(builtinTemplate('business-strategy')!.workflow.steps[1]!.systemPrompt).toContain(
      '3 đến 5 đối thủ',
    );
    expect(builtinTemplate('marketing-content')!.workflow.steps.map((s) => s.outputMode)).toEqual([
      'single',
      'single',
      'multiple',
    ]);
    expect(builtinTemplate('product-research')!.workflow.steps[2]!.name).toBe('Lập kế hoạch MVP');
  });
});
