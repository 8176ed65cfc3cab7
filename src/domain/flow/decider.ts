import { conflict, notFound, ruleViolated } from '../errors';
import {
  checkFlowSize,
  hasTheChoicesItsModeNeeds,
  MAX_FLOW_STEPS,
  MULTIPLE_CHOICE_NEEDS_CHOICE,
  normaliseStepConfig,
} from '../flow';
import {
  type FlowDetails,
  type FlowEvent,
  type FlowOrigin,
  type FlowSnapshot,
  type FlowState,
  inStepOrder,
  type StepFields,
  type VersionedStep,
} from './events';

/**
 * Commands of a flow's stream. Every change of a flow or its steps is one, so every version of the flow is a
 * position of its stream; the caller names new ids (a flow's, a step's).
 */
export type FlowCommand =
  | { type: 'CreateFlow'; data: { flowId: string; origin: FlowOrigin } & FlowSnapshot }
  /** Name, description and status as one form saves them: one version, however many of them changed. */
  | { type: 'ReviseFlow'; data: Partial<Pick<FlowDetails, 'name' | 'description' | 'status'>> }
  | { type: 'AddStep'; data: { step: Omit<VersionedStep, 'createdAt'> } }
  | { type: 'EditStep'; data: { stepId: string; changes: Partial<StepFields> } }
  | { type: 'RemoveStep'; data: { stepId: string } }
  | { type: 'ReorderSteps'; data: { orders: { stepId: string; order: number }[] } }
  /** `past` is the flow as it stood at `version` (the caller folds the stream up to it). */
  | { type: 'RestoreVersion'; data: { version: number; past: FlowState } }
  | { type: 'DeleteFlow'; data: Record<string, never> };

export interface FlowContext {
  /** ISO time of the command. */
  now: string;
  userId: string;
  /** The stream's version the state reflects. */
  version: number;
}

export const FLOW_NOT_FOUND = 'Flow not found';
export const STEP_NOT_FOUND = 'Step not found';
export const INPUT_SOURCES_EARLIER = 'inputSources: input sources may only be earlier steps of the same flow';
export const TOO_MANY_STEPS = `A flow has at most ${MAX_FLOW_STEPS} steps`;

const STEP_FIELD_NAMES: (keyof StepFields)[] = [
  'order',
  'name',
  'systemPrompt',
  'outputMode',
  'inputSources',
  'choices',
  'loopTargetStepId',
  'maxLoopIterations',
  'currentLoopIteration',
  'requiresUserInput',
];

export function decideFlow(command: FlowCommand, state: FlowState, context: FlowContext): FlowEvent[] {
  const at = context.now;
  if (command.type === 'CreateFlow') {
    if (state.flowId !== null) throw conflict('Flow already exists');
    const { flowId, origin, details } = command.data;
    const steps = inStepOrder(command.data.steps.map((step) => normaliseStepConfig(step)));
    for (const step of steps) checkInputSources(steps, step);
    checkFlowSize(steps);
    return [{ type: 'FlowCreated', data: { flowId, userId: context.userId, origin, details, steps, at } }];
  }
  if (state.flowId === null || state.deleted) throw notFound(FLOW_NOT_FOUND);
  switch (command.type) {
    case 'ReviseFlow': {
      // One save, one version: whatever of name, description and status it changes, in one event.
      const { before, after } = changed(state.details, command.data, ['name', 'description', 'status']);
      if (Object.keys(after).length === 0) return [];
      return [{ type: 'FlowDescribed', data: { before, after, at } }];
    }
    case 'AddStep': {
      const { step } = command.data;
      if (state.steps.some((existing) => existing.id === step.id)) throw conflict('Step already exists');
      if (state.steps.length >= MAX_FLOW_STEPS) throw ruleViolated(TOO_MANY_STEPS);
      const added = normaliseStepConfig({ ...step, createdAt: at });
      checkInputSources(state.steps, added);
      if (!hasTheChoicesItsModeNeeds(added)) throw ruleViolated(MULTIPLE_CHOICE_NEEDS_CHOICE);
      checkFlowSize([...state.steps, added]);
      return [{ type: 'StepAdded', data: { step: added, at } }];
    }
    case 'EditStep': {
      const current = stepOf(state, command.data.stepId);
      const next = normaliseStepConfig({ ...current, ...command.data.changes });
      checkInputSources(state.steps, next);
      const { before, after } = changed(current, next, STEP_FIELD_NAMES);
      if (Object.keys(after).length === 0) return [];
      // Checked when the edit touches them: a step saved before the rule keeps its other edits.
      if (('outputMode' in after || 'choices' in after) && !hasTheChoicesItsModeNeeds(next))
        throw ruleViolated(MULTIPLE_CHOICE_NEEDS_CHOICE);
      checkFlowSize(
        state.steps.map((step) => (step === current ? next : step)),
        state.steps,
      );
      return [{ type: 'StepEdited', data: { stepId: current.id, before, after, at } }];
    }
    case 'RemoveStep':
      return [{ type: 'StepRemoved', data: { step: stepOf(state, command.data.stepId), at } }];
    case 'ReorderSteps': {
      const orders = command.data.orders.flatMap(({ stepId, order }) => {
        const before = stepOf(state, stepId).order;
        return before === order ? [] : [{ stepId, before, after: order }];
      });
      return orders.length === 0 ? [] : [{ type: 'StepsReordered', data: { orders, at } }];
    }
    case 'RestoreVersion': {
      const { version, past } = command.data;
      if (!Number.isInteger(version) || version < 1 || version > context.version || past.flowId === null)
        throw notFound(`Version ${version} not found`);
      if (version === context.version) throw ruleViolated(`Version ${version} is the current version`);
      checkFlowSize(past.steps);
      return [{ type: 'FlowRestored', data: { version, details: past.details, steps: past.steps, at } }];
    }
    case 'DeleteFlow':
      return [{ type: 'FlowDeleted', data: { at } }];
  }
}

function stepOf(state: FlowState, stepId: string): VersionedStep {
  const step = state.steps.find((each) => each.id === stepId);
  if (!step) throw notFound(STEP_NOT_FOUND);
  return step;
}

/** Input sources may only name earlier steps of the same flow. */
function checkInputSources(
  steps: VersionedStep[],
  step: Pick<VersionedStep, 'id' | 'order' | 'inputSources'>,
) {
  const earlier = new Set(
    steps.filter((other) => other.order < step.order && other.id !== step.id).map((s) => s.id),
  );
  if (step.inputSources.some((id) => !earlier.has(id))) throw ruleViolated(INPUT_SOURCES_EARLIER);
}

/** The named fields whose value differs, as they were and as they would be. */
function changed<T extends object, K extends keyof T>(
  current: T,
  next: Partial<T>,
  fields: K[],
): { before: Partial<Pick<T, K>>; after: Partial<Pick<T, K>> } {
  const before: Partial<Pick<T, K>> = {};
  const after: Partial<Pick<T, K>> = {};
  for (const field of fields) {
    if (!(field in next) || next[field] === undefined) continue;
    if (JSON.stringify(current[field]) === JSON.stringify(next[field])) continue;
    before[field] = current[field];
    after[field] = next[field] as T[K];
  }
  return { before, after };
}
