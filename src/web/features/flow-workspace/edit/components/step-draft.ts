import {
  normaliseStepConfig,
  type Step,
  stepSettingsSchema,
  type UpdateStepInput,
} from '../../../../../domain/flow';

/** The fields the step editor lets a user change. */
export type StepFields = Pick<
  Step,
  | 'name'
  | 'systemPrompt'
  | 'outputMode'
  | 'choices'
  | 'maxLoopIterations'
  | 'inputSources'
  | 'requiresUserInput'
>;

/**
 * The editor's local copies of one step's fields: `base` as the step was when editing began, `fields` as
 * typed since. Only what differs from `base` is sent, so a field changed elsewhere meanwhile is kept.
 */
export interface StepDraft {
  flowId: string;
  stepId: string;
  editing: boolean;
  base: StepFields;
  fields: StepFields;
}

const fieldsOf = (step: Step): StepFields => ({
  name: step.name,
  systemPrompt: step.systemPrompt,
  outputMode: step.outputMode,
  choices: step.choices,
  maxLoopIterations: step.maxLoopIterations,
  inputSources: step.inputSources,
  requiresUserInput: step.requiresUserInput,
});

export function draftOf(step: Step, editing = false): StepDraft {
  const fields = fieldsOf(step);
  return { flowId: step.flowId, stepId: step.id, editing, base: fields, fields };
}

/** Blank choices are the editor's empty rows, not options. */
const choicesOf = (fields: StepFields) => fields.choices.map((c) => c.trim()).filter((c) => c !== '');

/** The configuration the step rules make of the fields (one rule shared with the server). */
function configOf(stepId: string, fields: StepFields) {
  return normaliseStepConfig({
    id: stepId,
    ...fields,
    choices: choicesOf(fields),
    loopTargetStepId: null,
  });
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** What saving the draft sends: the changed fields; the mode and its settings always go together. */
export function draftChanges(draft: StepDraft): UpdateStepInput {
  const next = configOf(draft.stepId, draft.fields);
  const before = configOf(draft.stepId, draft.base);
  const changes: UpdateStepInput = {};
  if (next.name.trim() !== before.name) changes.name = next.name.trim();
  if (next.systemPrompt !== before.systemPrompt) changes.systemPrompt = next.systemPrompt;
  if (!same(next.inputSources, before.inputSources)) changes.inputSources = next.inputSources;
  if (next.requiresUserInput !== before.requiresUserInput) changes.requiresUserInput = next.requiresUserInput;
  const modeKeys = ['outputMode', 'choices', 'loopTargetStepId', 'maxLoopIterations'] as const;
  if (modeKeys.some((key) => !same(next[key], before[key]))) {
    Object.assign(changes, {
      outputMode: next.outputMode,
      choices: next.choices,
      loopTargetStepId: next.loopTargetStepId,
      maxLoopIterations: next.maxLoopIterations,
    });
  }
  return changes;
}

export const hasDraftChanges = (draft: StepDraft | null): draft is StepDraft =>
  draft?.editing === true && Object.keys(draftChanges(draft)).length > 0;

export type DraftProblem = 'needChoice' | 'needName';

/** The problems of the step's settings (the domain's rules) that the editor words for the user. */
function problemOf(fields: ReadonlySet<PropertyKey | undefined>): DraftProblem | null {
  if (fields.has('name')) return 'needName';
  if (fields.has('choices')) return 'needChoice';
  return null;
}

/** Why the draft cannot be saved as it is, if it cannot. */
export function draftProblem(draft: StepDraft): DraftProblem | null {
  const result = stepSettingsSchema.safeParse(draft.fields);
  return result.success ? null : problemOf(new Set(result.error.issues.map((issue) => issue.path[0])));
}
