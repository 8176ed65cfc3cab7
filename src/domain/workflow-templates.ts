import { BUILTIN_TEMPLATES, type BuiltinTemplate } from './builtin-templates';
import type { TemplateRecord } from './workflow-recommendations';

const CATEGORY_OF: Record<string, string> = {
  'business-strategy': 'business',
  'marketing-content': 'creative',
  'product-research': 'analysis',
};

/** A built-in workflow in the shape of a workflow_templates row, so both list as templates. */
export function builtinTemplateRecord(template: BuiltinTemplate): TemplateRecord {
  return {
    id: `builtin:${template.id}`,
    name: template.workflow.name,
    description: template.workflow.description ?? '',
    category: CATEGORY_OF[template.id] ?? 'other',
    difficulty: 'beginner',
    estimatedDuration: null,
    templateSteps: template.workflow.steps,
    tags: ['builtin'],
    usageCount: 0,
    averageRating: 0,
    isPublic: true,
    createdBy: null,
    builtin: true,
  };
}

export const builtinTemplateRecords = (): TemplateRecord[] => BUILTIN_TEMPLATES.map(builtinTemplateRecord);
