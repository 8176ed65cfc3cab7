import { z } from 'zod';
import { PRODUCT_RULE } from './errors';
import { isRequired, requiredText } from './filled-text';
import { MAX_LOOP_ITERATIONS, MULTIPLE_CHOICE_NEEDS_CHOICE, OUTPUT_MODES } from './flow';
import { modelIdSchema } from './model-choice';
import { stepReviewSchema } from './step-review';

/**
 * Workflow JSON: a flow and its steps as text, for creating a flow from an AI answer, a
 * built-in template or an imported file. Steps point at earlier steps as 'step-N' (N = that step's
 * order), since the steps have no ids until they are created.
 */

export const WORKFLOW_MAX_STEPS = 50;
/** How long a description of the workflow to generate may be. */
export const WORKFLOW_DESCRIPTION_MAX_LENGTH = 10_000;

const STEP_REFERENCE = /^step[-_](\d+)$/i;

/** The step order a 'step-N' (or 'step_N') reference names, or null when it is not one. */
export function referencedOrder(reference: string): number | null {
  const match = STEP_REFERENCE.exec(reference.trim());
  return match ? Number(match[1]) : null;
}

export const stepReference = (order: number) => `step-${order}`;

/** A step of Workflow JSON: everything that configures it, input sources as 'step-N'. */
export const workflowStepSchema = z.object({
  name: requiredText(isRequired('name'), 200),
  order: z.number().int().min(1).max(10_000),
  systemPrompt: z.string().max(100_000),
  outputMode: z.enum(OUTPUT_MODES),
  requiresUserInput: z.boolean().default(false),
  inputSources: z
    .array(z.string().trim().regex(STEP_REFERENCE, "phải có dạng 'step-N', N là order của một step trước đó"))
    .max(100)
    .default([]),
  choices: z.array(z.string().trim().min(1).max(1_000)).max(100).default([]),
  maxLoopIterations: z.number().int().min(1).max(MAX_LOOP_ITERATIONS).default(1),
  /** Who approves the step's results; none: the person who ran it. */
  review: stepReviewSchema.optional(),
  /** The model that answers the step (`provider:name`); none: the server's default. */
  model: modelIdSchema.optional(),
});

type WorkflowStepShape = z.output<typeof workflowStepSchema>;

/** Orders are distinct; each input source names an earlier step; a choice step has choices. */
export function checkWorkflowSteps(steps: WorkflowStepShape[], ctx: z.RefinementCtx) {
  const orders = new Set<number>();
  for (const [index, step] of steps.entries()) {
    if (orders.has(step.order)) {
      ctx.addIssue({
        code: 'custom',
        params: PRODUCT_RULE,
        path: ['steps', index, 'order'],
        message: `hai step cùng order ${step.order}; mỗi step cần một order riêng`,
      });
    }
    orders.add(step.order);
  }
  for (const [index, step] of steps.entries()) {
    const where = `Step ${step.order} "${step.name}"`;
    for (const [position, source] of step.inputSources.entries()) {
      const order = referencedOrder(source)!;
      const message = !orders.has(order)
        ? `${where}: input source '${source}' không trỏ tới step nào của workflow này`
        : order >= step.order
          ? `${where}: input source '${source}' không phải step đứng trước (input source chỉ được là các step đứng trước)`
          : null;
      if (message)
        ctx.addIssue({
          code: 'custom',
          params: PRODUCT_RULE,
          path: ['steps', index, 'inputSources', position],
          message,
        });
    }
    if (step.outputMode === 'multiple_choice' && step.choices.length === 0) {
      ctx.addIssue({
        code: 'custom',
        params: PRODUCT_RULE,
        path: ['steps', index, 'choices'],
        message: `${where}: ${MULTIPLE_CHOICE_NEEDS_CHOICE}`,
      });
    }
  }
}

/** The name of a flow made from Workflow JSON that names none, as an imported file's flow may. */
export const UNTITLED_WORKFLOW_NAME = 'Untitled';

export const workflowJsonSchema = z
  .object({
    name: z
      .string()
      .trim()
      .max(200)
      .nullish()
      .transform((name) => name || UNTITLED_WORKFLOW_NAME),
    // Imported files may lack a description; the flow then takes its name as description.
    description: z.string().trim().max(2_000).default(''),
    steps: z
      .array(workflowStepSchema)
      .min(1, 'workflow cần ít nhất một step')
      .max(WORKFLOW_MAX_STEPS, `workflow có tối đa ${WORKFLOW_MAX_STEPS} step`),
  })
  .superRefine((workflow, ctx) => checkWorkflowSteps(workflow.steps, ctx));

/** Valid Workflow JSON, with every default filled in. */
export type WorkflowJson = z.output<typeof workflowJsonSchema>;
export type WorkflowStep = WorkflowJson['steps'][number];
/** Workflow JSON as written: optional fields may be missing. */
export type WorkflowJsonInput = z.input<typeof workflowJsonSchema>;

/**
 * A workflow as the model proposes it (single or multiple output only), before it is created:
 * what the model is asked to write, and what generating a workflow answers.
 */
export const generatedWorkflowSchema = z.object({
  name: z.string().describe('A short name for the workflow'),
  description: z.string().describe('One or two sentences on what the workflow achieves'),
  steps: z
    .array(
      z.object({
        name: z.string(),
        order: z.int().min(1),
        systemPrompt: z.string(),
        outputMode: z.enum(['single', 'multiple']),
        requiresUserInput: z.boolean(),
        inputSources: z.array(z.string().describe('step-N of an earlier step')),
      }),
    )
    .min(1)
    .max(WORKFLOW_MAX_STEPS),
});

export type GeneratedWorkflow = z.output<typeof generatedWorkflowSchema>;

/**
 * Steps numbered 1, 2, 3... in their order, their 'step-N' input sources following the numbers they move
 * to: a renumbering changes no step's sources.
 */
export function renumberSteps<S extends { order: number; inputSources: string[] }>(steps: readonly S[]): S[] {
  const sorted = steps.toSorted((a, b) => a.order - b.order);
  const renumbered = new Map(sorted.map((step, index) => [step.order, index + 1]));
  return sorted.map((step, index) => ({
    ...step,
    order: index + 1,
    inputSources: step.inputSources.map((source) => {
      const moved = renumbered.get(referencedOrder(source) ?? -1);
      return moved === undefined ? source : stepReference(moved);
    }),
  }));
}

/** The created steps' ids in place of the 'step-N' references (the workflow has been validated). */
export function inputSourceIds(step: WorkflowStep, idOfOrder: ReadonlyMap<number, string>): string[] {
  return [...new Set(step.inputSources.map((source) => idOfOrder.get(referencedOrder(source)!)!))];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const hasSteps = (value: unknown): value is Record<string, unknown> =>
  isRecord(value) && Array.isArray(value.steps);

const hasNameAndSteps = (value: unknown): boolean => hasSteps(value) && 'name' in value;

/**
 * The workflow an imported JSON value holds: the first flow of a `flows` list (named or not: a
 * nameless one is imported as 'Untitled'), an object with name and steps, or the `workflow` of what Export
 * JSON answers; null when it holds none of them.
 */
export function workflowInImport(value: unknown): Record<string, unknown> | null {
  if (!isRecord(value)) return null;
  if (Array.isArray(value.flows)) return hasSteps(value.flows[0]) ? value.flows[0] : null;
  const candidate = hasNameAndSteps(value) ? value : value.workflow;
  return hasNameAndSteps(candidate) ? (candidate as Record<string, unknown>) : null;
}
