import { z } from 'zod';
import { DomainError, PRODUCT_RULE } from './errors';
import { atMostCharacters, isFilled, isRequired, oneOf, requiredText } from './filled-text';
import { modelIdSchema } from './model-choice';
import { requestedId } from './record-id';
import { type StepReview, stepReviewSchema } from './step-review';

export const OUTPUT_MODES = ['single', 'multiple', 'multiple_choice', 'loop'] as const;
export type OutputMode = (typeof OUTPUT_MODES)[number];

export const FLOW_STATUSES = ['active', 'draft', 'inactive'] as const;

export const MAX_LOOP_ITERATIONS = 100;
/** Steps of one flow: every version of the flow is stored whole when it is restored, so it stays bounded. */
export const MAX_FLOW_STEPS = 100;

/**
 * A flow as a whole: its steps as stored (their JSON) may be at most this many characters, so that whatever
 * is saved can run and be restored. At 3 bytes a character at most that is 6 MB, under the 8 MB an event may
 * hold, and the execution that starts from the flow, or the version that restores it, holds its steps whole.
 */
export const MAX_FLOW_CHARS = 2_000_000;

export const FLOW_NAME_MAX_LENGTH = 200;
export const FLOW_DESCRIPTION_MAX_LENGTH = 2000;
export const STEP_NAME_MAX_LENGTH = 200;
export const SYSTEM_PROMPT_MAX_LENGTH = 100_000;
export const CHOICE_MAX_LENGTH = 1_000;

/** A flow as stored and returned by the API. */
export interface Flow {
  id: string;
  userId: string;
  /** The workspace the flow is in; null: its owner's own. */
  workspaceId: string | null;
  name: string;
  description: string;
  status: string;
  isTemplate: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A step as stored and returned by the API. */
export interface Step {
  id: string;
  flowId: string;
  order: number;
  name: string;
  systemPrompt: string;
  outputMode: OutputMode;
  inputSources: string[];
  choices: string[];
  loopTargetStepId: string | null;
  maxLoopIterations: number;
  currentLoopIteration: number;
  requiresUserInput: boolean;
  /** Who approves its results; none or null: the person who ran it. */
  review?: StepReview | null;
  /** The model that answers it (`provider:name`); none or null: the server's default. */
  model?: string | null;
  createdAt: string;
}

/** What an execution needs to know of a step: the step fields without its flow bookkeeping. */
export type StepSnapshot = Pick<
  Step,
  | 'id'
  | 'order'
  | 'name'
  | 'systemPrompt'
  | 'outputMode'
  | 'inputSources'
  | 'choices'
  | 'loopTargetStepId'
  | 'maxLoopIterations'
  | 'requiresUserInput'
  | 'review'
  | 'model'
>;

const text = (max: number) => z.string().max(max, atMostCharacters(max));
const required = (field: string, max: number) => requiredText(isRequired(field), max);

const flowFields = {
  name: required('name', FLOW_NAME_MAX_LENGTH),
  description: required('description', FLOW_DESCRIPTION_MAX_LENGTH),
  status: z.enum(FLOW_STATUSES, { error: oneOf(FLOW_STATUSES) }).optional(),
};
export const createFlowSchema = z.strictObject({
  ...flowFields,
  /** The workspace to make it in; none or null: the user's own flows. */
  workspaceId: requestedId().nullable().optional(),
});
export const updateFlowSchema = z.strictObject(flowFields).partial();

const stepFields = {
  name: required('name', STEP_NAME_MAX_LENGTH),
  order: z.number().int().min(1).max(10_000),
  systemPrompt: text(SYSTEM_PROMPT_MAX_LENGTH),
  outputMode: z.enum(OUTPUT_MODES),
  inputSources: z.array(requestedId()).max(100),
  choices: z.array(text(CHOICE_MAX_LENGTH)).max(100),
  loopTargetStepId: requestedId().nullable(),
  maxLoopIterations: z.number().int().min(1).max(MAX_LOOP_ITERATIONS),
  currentLoopIteration: z.number().int().min(0).max(MAX_LOOP_ITERATIONS),
  requiresUserInput: z.boolean(),
  /** Who approves the step's results; null: the person who ran it. */
  review: stepReviewSchema.nullable(),
  /** The model that answers the step (`provider:name`); null: the server's default. */
  model: modelIdSchema.nullable(),
};

export const createStepSchema = z.strictObject({
  flowId: requestedId(),
  ...stepFields,
  systemPrompt: stepFields.systemPrompt.default(''),
  outputMode: stepFields.outputMode.default('single'),
  inputSources: stepFields.inputSources.default([]),
  choices: stepFields.choices.default([]),
  loopTargetStepId: stepFields.loopTargetStepId.default(null),
  maxLoopIterations: stepFields.maxLoopIterations.default(1),
  currentLoopIteration: stepFields.currentLoopIteration.default(0),
  requiresUserInput: stepFields.requiresUserInput.default(false),
  review: stepFields.review.optional(),
  model: stepFields.model.optional(),
});
export const updateStepSchema = z.strictObject(stepFields).partial();

export const MULTIPLE_CHOICE_NEEDS_CHOICE = 'step multiple_choice cần ít nhất một lựa chọn';

/** A multiple_choice step needs a choice that is not blank (blank rows are the editor's empty ones). */
export const hasTheChoicesItsModeNeeds = (step: Pick<StepSnapshot, 'outputMode' | 'choices'>) =>
  step.outputMode !== 'multiple_choice' || step.choices.some(isFilled);

/**
 * A step's settings as the step editor holds them: the step's rules, and the one more the server applies
 * to every step it adds or edits (hasTheChoicesItsModeNeeds).
 */
export const stepSettingsSchema = z
  .object({
    name: stepFields.name,
    systemPrompt: stepFields.systemPrompt,
    outputMode: stepFields.outputMode,
    choices: stepFields.choices,
    maxLoopIterations: stepFields.maxLoopIterations,
    inputSources: stepFields.inputSources,
    requiresUserInput: stepFields.requiresUserInput,
  })
  .refine(hasTheChoicesItsModeNeeds, {
    path: ['choices'],
    message: MULTIPLE_CHOICE_NEEDS_CHOICE,
    params: PRODUCT_RULE,
  });

/** Each step's stored size, kept by the step object: a flow's unchanged steps are measured once. */
const storedSizes = new WeakMap<object, number>();
const storedSizeOf = (step: object) => {
  let size = storedSizes.get(step);
  if (size === undefined) {
    size = JSON.stringify(step).length;
    storedSizes.set(step, size);
  }
  return size;
};

const storedSize = (steps: readonly object[]) =>
  steps.reduce((total: number, step) => total + storedSizeOf(step), 0);

/**
 * Refuses steps that together pass MAX_FLOW_CHARS (413, both sizes named); given the steps they replace, a
 * change that does not grow a flow saved over the limit before it existed is let through.
 */
export function checkFlowSize(steps: readonly object[], replacing?: readonly object[]): void {
  const size = storedSize(steps);
  if (size > MAX_FLOW_CHARS && (replacing === undefined || size > storedSize(replacing)))
    throw new DomainError(
      'too_large',
      `Các step của flow sẽ dài ${size.toLocaleString('en-US')} ký tự; một flow dài tối đa ` +
        `${MAX_FLOW_CHARS.toLocaleString('en-US')} ký tự (tên, prompt và lựa chọn của mọi step cộng lại).`,
    );
}

export type CreateFlowInput = z.infer<typeof createFlowSchema>;
export type CreateStepInput = z.infer<typeof createStepSchema>;
export type UpdateStepInput = z.infer<typeof updateStepSchema>;

/**
 * The step configuration rules applied on save: choices only for multiple_choice, loop settings
 * only for loop (whose target is the step itself).
 */
export function normaliseStepConfig<T extends Partial<StepSnapshot>>(step: T & { id?: string }): T {
  const mode = step.outputMode;
  if (mode === undefined) return step;
  return {
    ...step,
    choices: mode === 'multiple_choice' ? (step.choices ?? []) : [],
    loopTargetStepId: mode === 'loop' ? (step.id ?? step.loopTargetStepId ?? null) : null,
    maxLoopIterations: mode === 'loop' ? (step.maxLoopIterations ?? 1) : 1,
  };
}
