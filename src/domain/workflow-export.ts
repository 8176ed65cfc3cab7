import { z } from 'zod';
import { isFilled } from './filled-text';
import { OUTPUT_MODES, type StepSnapshot } from './flow';
import { ON_DUE, REVIEW_BY, REVIEW_ROLES } from './step-review';
import { stepReference } from './workflow-json';

export type ExportedStep = Pick<
  StepSnapshot,
  | 'id'
  | 'order'
  | 'name'
  | 'systemPrompt'
  | 'outputMode'
  | 'inputSources'
  | 'choices'
  | 'maxLoopIterations'
  | 'requiresUserInput'
  | 'review'
  | 'model'
>;

/** A step's review rule as export writes it (what import takes back). */
const stepReviewAnswerShape = z.object({
  by: z.enum(REVIEW_BY),
  userIds: z.array(z.string()).optional(),
  role: z.enum(REVIEW_ROLES).optional(),
  approvals: z.int(),
  selfApproval: z.boolean(),
  dueInHours: z.int().optional(),
  onDue: z.enum(ON_DUE).optional(),
});

/** Workflow JSON as export writes it: valid input for creating a flow from JSON. */
export const exportedWorkflowSchema = z.object({
  name: z.string(),
  description: z.string(),
  steps: z.array(
    z.object({
      name: z.string(),
      order: z.int(),
      systemPrompt: z.string(),
      outputMode: z.enum(OUTPUT_MODES),
      requiresUserInput: z.boolean(),
      inputSources: z.array(z.string().describe('step-N of an earlier step')),
      choices: z.array(z.string()).optional(),
      maxLoopIterations: z.int().optional(),
      review: stepReviewAnswerShape.optional(),
      model: z.string().optional(),
    }),
  ),
});

export type ExportedWorkflow = z.output<typeof exportedWorkflowSchema>;

/**
 * A flow as Workflow JSON, the shape creating a flow from JSON takes back. Input sources become 'step-N'
 * references; choices are written only for multiple_choice (blank ones, the editor's empty rows, left out:
 * Workflow JSON has none) and the iteration count only for loop, where they mean something. Orders are kept as stored rather than renumbered: prompts name earlier steps as
 * [[step-N]] by those very orders. Input sources that no longer name a step of the flow are left out.
 */
export function workflowOf(
  flow: { name: string; description: string },
  steps: readonly ExportedStep[],
): ExportedWorkflow {
  const orderOf = new Map(steps.map((step) => [step.id, step.order]));
  const sorted = [...steps].sort((a, b) => a.order - b.order);
  return {
    name: flow.name,
    description: flow.description,
    steps: sorted.map((step) => {
      const sources = step.inputSources.flatMap((id) => {
        const order = orderOf.get(id);
        return order === undefined ? [] : [stepReference(order)];
      });
      return {
        name: step.name,
        order: step.order,
        systemPrompt: step.systemPrompt,
        outputMode: step.outputMode,
        requiresUserInput: step.requiresUserInput,
        inputSources: [...new Set(sources)],
        ...(step.outputMode === 'multiple_choice' ? { choices: step.choices.filter(isFilled) } : {}),
        ...(step.outputMode === 'loop' ? { maxLoopIterations: step.maxLoopIterations } : {}),
        ...(step.review ? { review: step.review } : {}),
        ...(step.model ? { model: step.model } : {}),
      };
    }),
  };
}
