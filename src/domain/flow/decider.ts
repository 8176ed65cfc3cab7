import type { Decider } from '../decider';
import { conflict, notFound, ruleViolated } from '../errors';
import {
  checkFlowSize,
  hasTheChoicesItsModeNeeds,
  MAX_FLOW_STEPS,
  MULTIPLE_CHOICE_NEEDS_CHOICE,
  normaliseStepConfig,
} from '../flow';
import {
  asksAnotherPerson,
  bindingReview,
  REVIEW_MESSAGES,
  requireMeetableRule,
  requireRuleOwner,
  type StepReview,
  sameReview,
} from '../step-review';
import type { FlowCommand, FlowContext } from './commands';
import { type FlowEvent, type FlowState, inStepOrder, type StepFields, type VersionedStep } from './events';

export const FLOW_NOT_FOUND = 'Không tìm thấy flow';
export const STEP_NOT_FOUND = 'Không tìm thấy step';
export const INPUT_SOURCES_EARLIER =
  'inputSources: input source chỉ được là các step đứng trước trong cùng flow';
/** A step moved to or after a step that takes it as an input source: the input would come from a later step. */
export const takenAsInputBy = (name: string) =>
  `order: step "${name}" lấy step này làm input source, nên step này phải đứng trước "${name}"`;
/** A version of a flow it never reached (or not yet). */
export const versionNotFound = (version: number) => `Không tìm thấy phiên bản ${version}`;
export const TOO_MANY_STEPS = `Một flow có tối đa ${MAX_FLOW_STEPS} step`;

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
  'review',
  'model',
];

/** A flow's rules: the flow its versions fold to, and the version each change adds. */
export const decider: Decider<FlowState, FlowCommand, FlowEvent, FlowContext> = {
  initialState,
  evolve,
  decide,
};

function initialState(): FlowState {
  return {
    flowId: null,
    userId: null,
    workspaceId: null,
    details: { name: '', description: '', status: 'draft', isTemplate: false },
    steps: [],
    createdAt: null,
    updatedAt: null,
    deleted: false,
  };
}

function evolve(state: FlowState, event: FlowEvent): FlowState {
  const next = { ...state, updatedAt: event.data.at };
  switch (event.type) {
    case 'FlowCreated':
    case 'FlowImported': {
      const { flowId, userId, details, steps, at } = event.data;
      const createdAt = event.type === 'FlowImported' ? event.data.createdAt : at;
      const workspaceId = event.type === 'FlowCreated' ? (event.data.workspaceId ?? null) : null;
      return {
        ...next,
        flowId,
        userId,
        workspaceId,
        details,
        steps: inStepOrder(steps),
        createdAt,
        deleted: false,
      };
    }
    case 'FlowDescribed':
      return { ...next, details: { ...state.details, ...event.data.after } };
    case 'FlowStatusChanged':
      return { ...next, details: { ...state.details, status: event.data.after } };
    case 'StepAdded':
      return { ...next, steps: inStepOrder([...state.steps, event.data.step]) };
    case 'StepEdited': {
      const { stepId, after } = event.data;
      const steps = state.steps.map((step) => (step.id === stepId ? { ...step, ...after } : step));
      return { ...next, steps: inStepOrder(steps) };
    }
    case 'StepRemoved': {
      const removed = event.data.step.id;
      const steps = state.steps
        .filter((step) => step.id !== removed)
        // Later steps stop taking the removed one as an input.
        .map((step) =>
          step.inputSources.includes(removed)
            ? { ...step, inputSources: step.inputSources.filter((id) => id !== removed) }
            : step,
        );
      return { ...next, steps };
    }
    case 'StepsReordered': {
      const orders = new Map(event.data.orders.map(({ stepId, after }) => [stepId, after]));
      const steps = state.steps.map((step) => ({ ...step, order: orders.get(step.id) ?? step.order }));
      return { ...next, steps: inStepOrder(steps) };
    }
    case 'FlowRestored':
      return { ...next, details: event.data.details, steps: inStepOrder(event.data.steps) };
    case 'FlowDeleted':
      return { ...next, deleted: true };
    case 'FlowMoved':
      return { ...next, workspaceId: event.data.to };
  }
}

function decide(command: FlowCommand, state: FlowState, context: FlowContext): FlowEvent[] {
  const at = context.now;
  if (command.type === 'CreateFlow') {
    if (state.flowId !== null) throw conflict('Flow đã tồn tại');
    const { flowId, origin, details } = command.data;
    const steps = inStepOrder(command.data.steps.map((step) => normaliseStepConfig(step)));
    for (const step of steps) checkInputSources(steps, step);
    checkReviews(steps, command.data.workspaceId ?? null);
    checkRuleChanges(
      steps.map((step) => [null, step.review]),
      command.data.workspaceId ?? null,
      context,
    );
    checkFlowSize(steps);
    // A flow of its maker's own records no workspace: its first event reads as it always has.
    const workspace = command.data.workspaceId ? { workspaceId: command.data.workspaceId } : {};
    return [
      {
        type: 'FlowCreated',
        data: { flowId, userId: context.userId, origin, ...workspace, details, steps, at },
      },
    ];
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
      if (state.steps.some((existing) => existing.id === step.id)) throw conflict('Step đã tồn tại');
      if (state.steps.length >= MAX_FLOW_STEPS) throw ruleViolated(TOO_MANY_STEPS);
      const added = normaliseStepConfig({ ...step, createdAt: at });
      checkInputSources(state.steps, added);
      checkReviews([added], state.workspaceId);
      checkRuleChanges([[null, added.review]], state.workspaceId, context);
      if (!hasTheChoicesItsModeNeeds(added)) throw ruleViolated(MULTIPLE_CHOICE_NEEDS_CHOICE);
      checkFlowSize([...state.steps, added]);
      return [{ type: 'StepAdded', data: { step: added, at } }];
    }
    case 'EditStep': {
      const current = stepOf(state, command.data.stepId);
      const next = normaliseStepConfig({ ...current, ...command.data.changes });
      checkInputSources(state.steps, next);
      if (next.order !== current.order) checkTakers(state.steps, next);
      const { before, after } = changed(current, next, STEP_FIELD_NAMES);
      if (Object.keys(after).length === 0) return [];
      if ('review' in after) {
        checkReviews([next], state.workspaceId);
        checkRuleChanges([[current.review, next.review]], state.workspaceId, context);
      }
      // A new mode can switch the rule off as surely as removing it (multiple_choice: see bindingReview).
      if ('outputMode' in after)
        checkRuleChanges(
          [[bindingReview(current), bindingReview(next)]],
          state.workspaceId,
          context,
          REVIEW_MESSAGES.choiceDropsRule,
        );
      // Checked when the edit touches them: a step saved before the rule keeps its other edits.
      if (('outputMode' in after || 'choices' in after) && !hasTheChoicesItsModeNeeds(next))
        throw ruleViolated(MULTIPLE_CHOICE_NEEDS_CHOICE);
      checkFlowSize(
        state.steps.map((step) => (step === current ? next : step)),
        state.steps,
      );
      return [{ type: 'StepEdited', data: { stepId: current.id, before, after, at } }];
    }
    case 'RemoveStep': {
      const step = stepOf(state, command.data.stepId);
      checkRuleChanges([[step.review, null]], state.workspaceId, context, REVIEW_MESSAGES.stepHasRule);
      return [{ type: 'StepRemoved', data: { step, at } }];
    }
    case 'ReorderSteps': {
      const orders = command.data.orders.flatMap(({ stepId, order }) => {
        const before = stepOf(state, stepId).order;
        return before === order ? [] : [{ stepId, before, after: order }];
      });
      const orderOf = new Map(orders.map(({ stepId, after }) => [stepId, after]));
      const reordered = state.steps.map((step) => ({ ...step, order: orderOf.get(step.id) ?? step.order }));
      for (const step of reordered.filter(({ id }) => orderOf.has(id))) {
        checkInputSources(reordered, step);
        checkTakers(reordered, step);
      }
      return orders.length === 0 ? [] : [{ type: 'StepsReordered', data: { orders, at } }];
    }
    case 'RestoreVersion': {
      const { version, past } = command.data;
      if (!Number.isInteger(version) || version < 1 || version > context.version || past.flowId === null)
        throw notFound(versionNotFound(version));
      if (version === context.version) throw ruleViolated(`Phiên bản ${version} đang là phiên bản hiện tại`);
      checkFlowSize(past.steps);
      const ids = new Set([...state.steps, ...past.steps].map((step) => step.id));
      const stepIn = (steps: VersionedStep[], id: string) => steps.find((step) => step.id === id);
      const ruleOf = (steps: VersionedStep[], id: string) => stepIn(steps, id)?.review;
      const bindingOf = (steps: VersionedStep[], id: string) => {
        const found = stepIn(steps, id);
        return found ? bindingReview(found) : null;
      };
      checkRuleChanges(
        [...ids].flatMap((id) => [
          [ruleOf(state.steps, id), ruleOf(past.steps, id)],
          [bindingOf(state.steps, id), bindingOf(past.steps, id)],
        ]),
        state.workspaceId,
        context,
        REVIEW_MESSAGES.versionHasOtherRules,
      );
      return [{ type: 'FlowRestored', data: { version, details: past.details, steps: past.steps, at } }];
    }
    case 'DeleteFlow':
      checkRuleChanges(
        state.steps.map((step) => [step.review, null]),
        state.workspaceId,
        context,
        REVIEW_MESSAGES.flowHasRules('delete it'),
      );
      return [{ type: 'FlowDeleted', data: { at } }];
    case 'MoveFlow': {
      const to = command.data.workspaceId;
      if (to === state.workspaceId) return [];
      checkReviews(state.steps, to);
      // The rules go with the flow, out of reach of the workspace's owners.
      checkRuleChanges(
        state.steps.map((step) => [step.review, null]),
        state.workspaceId,
        context,
        REVIEW_MESSAGES.flowHasRules('move it out of the workspace'),
      );
      return [{ type: 'FlowMoved', data: { from: state.workspaceId, to, at } }];
    }
  }
}

function stepOf(state: FlowState, stepId: string): VersionedStep {
  const step = state.steps.find((each) => each.id === stepId);
  if (!step) throw notFound(STEP_NOT_FOUND);
  return step;
}

/** Another person than the runner approves a step only in a workspace: its members are who may be asked. */
function checkReviews(steps: Pick<VersionedStep, 'review'>[], workspaceId: string | null) {
  if (workspaceId === null && steps.some((step) => asksAnotherPerson(step.review)))
    throw ruleViolated(REVIEW_MESSAGES.notInWorkspace);
}

/**
 * The review rules a command changes, each as it was and as it would be (null: none): in a workspace only
 * its owners change them, and a rule they save must be one someone other than them can meet. A flow of its
 * owner's own has no one else, so its owner changes its rules as before.
 */
function checkRuleChanges(
  changes: [StepReview | null | undefined, StepReview | null | undefined][],
  workspaceId: string | null,
  context: FlowContext,
  refusal: string = REVIEW_MESSAGES.ownersOnly,
) {
  const changed = changes.filter(([before, after]) => !sameReview(before, after));
  if (workspaceId === null || changed.length === 0) return;
  requireRuleOwner(context.role, refusal);
  for (const [, after] of changed) requireMeetableRule(after, context.members, context.userId);
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

/** A step stays before every step that takes it as an input source: its order is not moved to or past them. */
function checkTakers(steps: VersionedStep[], step: Pick<VersionedStep, 'id' | 'order'>) {
  const taker = steps.find(
    (other) => other.id !== step.id && other.inputSources.includes(step.id) && other.order <= step.order,
  );
  if (taker) throw ruleViolated(takenAsInputBy(taker.name));
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
