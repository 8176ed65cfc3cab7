import { createHash } from 'node:crypto';
import type { Step, StepSnapshot } from '../flow';
import { DEFAULT_LIMITS } from '../limits';
import { decider } from './decider';
import type { DecideContext, ExecutionCommand, ExecutionEvent, ExecutionState, ResultDraft } from './types';

export const NOW = '2025-01-02T03:04:05.000Z';

/** Ids that read in a failing test: id-1, id-2, ... in the order decide asks for them. */
export function countingIds(prefix = 'id') {
  let n = 0;
  return () => `${prefix}-${++n}`;
}

export function contextWith(overrides: Partial<DecideContext> = {}): DecideContext {
  return {
    now: NOW,
    newId: countingIds(),
    userId: 'user-1',
    steps: [],
    limits: DEFAULT_LIMITS,
    textHash: sha256,
    ...overrides,
  };
}

/** SHA-256 of a text, hex: the context's `textHash` as the server gives it. */
export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export function aStep(order: number, fields: Partial<StepSnapshot> = {}): StepSnapshot {
  return {
    id: `step-${order}-id`,
    order,
    name: `Step ${order}`,
    systemPrompt: `Prompt ${order}`,
    outputMode: 'single',
    inputSources: [],
    choices: [],
    loopTargetStepId: null,
    maxLoopIterations: 1,
    requiresUserInput: false,
    ...fields,
  };
}

/** A step as the flow (and the web app) holds it, with the snapshot's fields of aStep. */
export function aFlowStep(order: number, fields: Partial<Step> = {}): Step {
  return { ...aStep(order), flowId: 'flow-1', currentLoopIteration: 0, createdAt: NOW, ...fields };
}

export const fold = (events: readonly ExecutionEvent[], state: ExecutionState = decider.initialState()) =>
  events.reduce(decider.evolve, state);

/**
 * The context for `given(decider, history, executionContext(...))` (src/domain/testing.ts): the flow's
 * steps are the execution's unless the test says the flow changed.
 */
export const executionContext =
  (overrides: Partial<DecideContext> = {}) =>
  (state: ExecutionState): DecideContext =>
    contextWith({ steps: state.steps, ...overrides });

// Events as histories state them: only what a test cares about is an argument.

export const EXECUTION_ID = 'execution-1';
export const FLOW_ID = 'flow-1';

export function executionStarted(steps: StepSnapshot[], cacheItemIds: string[], at = NOW): ExecutionEvent {
  return {
    type: 'ExecutionStarted',
    data: { executionId: EXECUTION_ID, userId: 'user-1', flowId: FLOW_ID, steps, cacheItemIds, at },
  };
}

export function stepRunStarted(
  step: StepSnapshot,
  runId: string,
  work: { cacheItemId: string | null; loopIteration?: number },
  at = NOW,
): ExecutionEvent {
  return {
    type: 'StepRunStarted',
    data: {
      runId,
      stepId: step.id,
      stepOrder: step.order,
      loopIteration: work.loopIteration ?? 0,
      cacheItemId: work.cacheItemId,
      userInput: 'input',
      systemPrompt: step.systemPrompt,
      finalPrompt: step.systemPrompt,
      stepLabels: {},
      unresolvedLabels: [],
      unreviewedResults: [],
      outputMode: step.outputMode,
      choices: step.choices,
      model: 'offline',
      keySource: 'offline',
      at,
    },
  };
}

export function draft(resultId: string, content: string, fields: Partial<ResultDraft> = {}): ResultDraft {
  return {
    resultId,
    label: 'Branch 1',
    branchName: null,
    branchPath: null,
    choiceIndex: null,
    loopIteration: null,
    content,
    ...fields,
  };
}

export function stepRunSucceeded(runId: string, results: ResultDraft[], at = NOW): ExecutionEvent {
  return { type: 'StepRunSucceeded', data: { runId, results, usage: null, durationMs: 5, at } };
}

/** A run of a step's pending work that succeeded with one plain result. */
export function ranStep(
  step: StepSnapshot,
  runId: string,
  cacheItemId: string | null,
  resultId: string,
  content: string,
  at = NOW,
): ExecutionEvent[] {
  return [
    stepRunStarted(step, runId, { cacheItemId }, at),
    stepRunSucceeded(runId, [draft(resultId, content)], at),
  ];
}

/** The command that runs a step (its first pending work, or a new version), as a user sends it offline. */
export const startStepRun = (
  runId: string,
  stepId: string,
  fields: Partial<Extract<ExecutionCommand, { type: 'StartStepRun' }>['data']> = {},
) =>
  ({
    type: 'StartStepRun',
    data: {
      runId,
      stepId,
      loopIteration: null,
      userInput: '',
      model: 'offline',
      keySource: 'offline',
      instanceId: 1,
      conversation: { userNotes: '', rejectedIdeas: '' },
      ...fields,
    },
  }) satisfies ExecutionCommand;

/** A review of `resultIds` asked of the reviewer role by user-1; what a test cares about it overrides. */
export function reviewRequested(
  reviewId: string,
  resultIds: string[],
  overrides: Partial<Extract<ExecutionEvent, { type: 'ReviewRequested' }>['data']> = {},
): ExecutionEvent {
  return {
    type: 'ReviewRequested',
    data: {
      reviewId,
      stepId: aStep(1).id,
      runId: null,
      resultIds,
      by: 'role',
      userIds: [],
      role: 'reviewer',
      approvals: 1,
      selfApproval: false,
      requestedBy: 'user-1',
      dueAt: null,
      onDue: null,
      note: null,
      at: NOW,
      ...overrides,
    },
  };
}
