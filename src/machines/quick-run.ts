import { assertEvent, assign, emit, fromPromise, raise, type SnapshotFrom, setup } from 'xstate';
import { DEFAULT_USER_INPUT, firstPendingCacheItem, NOT_A_LOOP, runningRun } from '../domain/execution';
import type { ExecutionState } from '../domain/execution/types';
import { newerView } from '../domain/live-updates';

/** QuickRun waits this long before it runs the next step by itself. */
export const AUTO_EXECUTE_DELAY_MS = 800;
/** After a successful run the execution is read again at most once per this many ms. */
export const REFRESH_THROTTLE_MS = 500;

/** An execution as the page knows it: the domain state and the stream position it reflects. */
export type QuickRunExecution = ExecutionState & { version: number };

/** The unit of work QuickRun is about to run: one cache item. */
export interface QuickRunItem {
  cacheItemId: string;
  stepId: string;
  loopIteration: number;
}

export interface RunStepInput {
  executionId: string;
  stepId: string;
  /** Set for a loop iteration, so the server runs exactly that one. */
  loopIteration?: number;
  userInput: string;
}

/** What the server answered for a run: the execution as it stands after it. */
export interface RunStepOutput {
  execution: QuickRunExecution;
}

export interface QuickRunContext {
  execution: QuickRunExecution | null;
  /** What the user has typed in each step's Input box, by step id. */
  inputs: Record<string, string>;
  next: QuickRunItem | null;
  /** The step whose input QuickRun waits for. */
  pausedStepId: string | null;
  /** Runs the user started by hand that have not answered yet, by step id. */
  manualRuns: string[];
  failure: { stepId: string; error: unknown } | null;
  /** A refresh was asked for while the last one is too recent: it follows when the throttle ends. */
  refreshWanted: boolean;
}

export type QuickRunEvent =
  | { type: 'EXECUTE_ALL'; execution: QuickRunExecution }
  | { type: 'EXECUTION_UPDATED'; execution: QuickRunExecution }
  | { type: 'INPUT_CHANGED'; stepId: string; input: string }
  | { type: 'RESUME' }
  | { type: 'STOP' }
  /** The user pressed a step's Execute. */
  | { type: 'STEP_EXECUTE_STARTED'; stepId: string }
  /** That run succeeded; the execution is the server's answer. */
  | { type: 'STEP_EXECUTED'; stepId: string; execution: QuickRunExecution }
  | { type: 'STEP_EXECUTE_FAILED'; stepId: string }
  | { type: 'REFRESH_EXECUTION' };

/** What the page is told once each, for its toasts. */
export type QuickRunEmitted =
  | { type: 'paused'; stepId: string }
  | { type: 'stepExecuted'; stepId: string }
  | { type: 'executeFailed'; stepId: string; error: unknown };

export type QuickRunStatus = 'idle' | 'running' | 'paused' | 'complete' | 'stopped';

const typedInput = (context: QuickRunContext, stepId: string) => context.inputs[stepId] ?? '';

const stepOf = (context: QuickRunContext, stepId: string) =>
  context.execution?.steps.find((step) => step.id === stepId);

/** A step that requires input cannot run while its Input box is blank. */
const lacksInput = (context: QuickRunContext, stepId: string) =>
  stepOf(context, stepId)?.requiresUserInput === true && typedInput(context, stepId).trim() === '';

const firstPending = (context: QuickRunContext) =>
  context.execution ? firstPendingCacheItem(context.execution) : null;

const without = (list: string[], stepId: string) => {
  const i = list.indexOf(stepId);
  return i === -1 ? list : [...list.slice(0, i), ...list.slice(i + 1)];
};

/**
 * QuickRun (started by Execute All): after each execution update it takes the first pending cache
 * item; none means complete; a step that requires input and has none typed pauses it until Resume;
 * anything else runs by itself after 800 ms, if it is still pending then. Runs go through the `runStep`
 * actor and the throttled read goes through `refreshExecution`, both provided by the page.
 */
export const quickRunMachine = setup({
  types: {
    context: {} as QuickRunContext,
    events: {} as QuickRunEvent,
    emitted: {} as QuickRunEmitted,
  },
  actors: {
    runStep: fromPromise<RunStepOutput, RunStepInput>(async () => {
      throw new Error('QuickRun has no step runner: provide runStep');
    }),
  },
  actions: {
    /** Reads the execution again; the page provides how. */
    refreshExecution: () => {},
    storeExecution: assign({
      execution: ({ context, event }) => {
        assertEvent(event, ['EXECUTE_ALL', 'EXECUTION_UPDATED', 'STEP_EXECUTED']);
        return newerView(context.execution, event.execution);
      },
    }),
    countManualRun: assign({
      manualRuns: ({ context, event }) => {
        assertEvent(event, 'STEP_EXECUTE_STARTED');
        return [...context.manualRuns, event.stepId];
      },
    }),
    endManualRun: assign({
      manualRuns: ({ context, event }) => {
        assertEvent(event, ['STEP_EXECUTED', 'STEP_EXECUTE_FAILED']);
        return without(context.manualRuns, event.stepId);
      },
    }),
    askRefresh: raise({ type: 'REFRESH_EXECUTION' }),
  },
  guards: {
    nothingPending: ({ context }) => firstPending(context) === null,
    executionEnded: ({ context }) => context.execution?.status !== 'running',
    runInProgress: ({ context }) =>
      context.manualRuns.length > 0 || (context.execution !== null && runningRun(context.execution) !== null),
    nextLacksInput: ({ context }) => {
      const item = firstPending(context);
      return item !== null && lacksInput(context, item.stepId);
    },
    /** The re-check when the 800 ms are up: done meanwhile, or its input cleared, and it is not run. */
    nextStillRunnable: ({ context }) => {
      const { next } = context;
      if (!next) return false;
      const item = context.execution?.executionCache.find((i) => i.id === next.cacheItemId);
      return item?.status === 'pending' && !lacksInput(context, next.stepId);
    },
    updateEndsExecution: ({ event }) =>
      event.type === 'EXECUTION_UPDATED' && event.execution.status !== 'running',
    updateStopsExecution: ({ event }) =>
      event.type === 'EXECUTION_UPDATED' &&
      (event.execution.status === 'stopped' || event.execution.status === 'failed'),
    pausedStepHasInput: ({ context }) =>
      context.pausedStepId !== null && !lacksInput(context, context.pausedStepId),
    pausedStepNoLongerNext: ({ context, event }) => {
      if (event.type !== 'EXECUTION_UPDATED') return false;
      const item = firstPendingCacheItem(newerView(context.execution, event.execution));
      return item?.stepId !== context.pausedStepId;
    },
    executedPausedStep: ({ context, event }) =>
      event.type === 'STEP_EXECUTED' && event.stepId === context.pausedStepId,
    refreshWanted: ({ context }) => context.refreshWanted,
  },
  delays: {
    autoExecute: AUTO_EXECUTE_DELAY_MS,
    refreshThrottle: REFRESH_THROTTLE_MS,
  },
}).createMachine({
  id: 'quickRun',
  type: 'parallel',
  context: {
    execution: null,
    inputs: {},
    next: null,
    pausedStepId: null,
    manualRuns: [],
    failure: null,
    refreshWanted: false,
  },
  on: {
    INPUT_CHANGED: {
      actions: assign({
        inputs: ({ context, event }) => ({ ...context.inputs, [event.stepId]: event.input }),
      }),
    },
  },
  states: {
    quickRun: {
      initial: 'idle',
      on: {
        // The user's Stop: timers and any wait end with leaving the state, and the mode is off.
        STOP: { target: '.idle', actions: assign({ next: null, pausedStepId: null }) },
        EXECUTION_UPDATED: { actions: 'storeExecution' },
        STEP_EXECUTE_STARTED: { actions: 'countManualRun' },
        STEP_EXECUTED: { actions: ['endManualRun', 'storeExecution', 'askRefresh'] },
        STEP_EXECUTE_FAILED: { actions: 'endManualRun' },
      },
      states: {
        idle: {
          on: {
            EXECUTE_ALL: { target: 'running', actions: ['storeExecution', assign({ failure: null })] },
          },
        },
        running: {
          initial: 'deciding',
          on: {
            // Stopped, completed or failed elsewhere: deciding says which, and nothing waits any more.
            EXECUTION_UPDATED: [
              { guard: 'updateEndsExecution', target: '.deciding', actions: 'storeExecution' },
              { actions: 'storeExecution' },
            ],
          },
          states: {
            deciding: {
              always: [
                { guard: 'nothingPending', target: '#quickRun.quickRun.complete' },
                { guard: 'executionEnded', target: '#quickRun.quickRun.stopped' },
                // Never a second run beside one in progress: the server would refuse it (409).
                { guard: 'runInProgress', target: 'awaitingRun' },
                {
                  guard: 'nextLacksInput',
                  target: '#quickRun.quickRun.paused',
                  actions: [
                    assign({
                      next: null,
                      pausedStepId: ({ context }) => firstPending(context)?.stepId ?? null,
                    }),
                    emit(({ context }) => ({ type: 'paused' as const, stepId: context.pausedStepId ?? '' })),
                  ],
                },
                {
                  target: 'waiting',
                  actions: assign({
                    next: ({ context }) => {
                      const item = firstPending(context)!;
                      return { cacheItemId: item.id, stepId: item.stepId, loopIteration: item.loopIteration };
                    },
                  }),
                },
              ],
            },
            waiting: {
              after: {
                autoExecute: [{ guard: 'nextStillRunnable', target: 'executing' }, { target: 'deciding' }],
              },
              on: {
                STEP_EXECUTE_STARTED: { target: 'awaitingRun', actions: 'countManualRun' },
              },
            },
            awaitingRun: {
              on: {
                EXECUTION_UPDATED: { target: 'deciding', actions: 'storeExecution' },
                STEP_EXECUTED: {
                  target: 'deciding',
                  actions: ['endManualRun', 'storeExecution', 'askRefresh'],
                },
                STEP_EXECUTE_FAILED: { target: 'deciding', actions: 'endManualRun' },
              },
            },
            executing: {
              on: {
                // The run that completes the execution answers soon: its answer decides, with its toast.
                EXECUTION_UPDATED: [
                  { guard: 'updateStopsExecution', target: 'deciding', actions: 'storeExecution' },
                  { actions: 'storeExecution' },
                ],
              },
              invoke: {
                src: 'runStep',
                input: ({ context }): RunStepInput => {
                  const next = context.next!;
                  const typed = typedInput(context, next.stepId);
                  return {
                    executionId: context.execution!.id,
                    stepId: next.stepId,
                    ...(next.loopIteration === NOT_A_LOOP ? {} : { loopIteration: next.loopIteration }),
                    userInput: typed.trim() === '' ? DEFAULT_USER_INPUT : typed,
                  };
                },
                onDone: {
                  target: 'deciding',
                  actions: [
                    assign({
                      execution: ({ context, event }) => newerView(context.execution, event.output.execution),
                    }),
                    emit(({ context }) => ({
                      type: 'stepExecuted' as const,
                      stepId: context.next?.stepId ?? '',
                    })),
                    assign({ next: null }),
                    'askRefresh',
                  ],
                },
                // A failed run stops QuickRun where it is, as if paused by hand, and says why.
                onError: {
                  target: '#quickRun.quickRun.stopped',
                  actions: [
                    assign({
                      failure: ({ context, event }) => ({
                        stepId: context.next?.stepId ?? '',
                        error: event.error,
                      }),
                    }),
                    emit(({ context }) => ({
                      type: 'executeFailed' as const,
                      stepId: context.failure?.stepId ?? '',
                      error: context.failure?.error,
                    })),
                    assign({ next: null }),
                  ],
                },
              },
            },
          },
        },
        paused: {
          on: {
            RESUME: {
              guard: 'pausedStepHasInput',
              target: 'running.executing',
              actions: assign({
                next: ({ context }) => {
                  const item = firstPendingCacheItem(context.execution!)!;
                  return { cacheItemId: item.id, stepId: item.stepId, loopIteration: item.loopIteration };
                },
                pausedStepId: null,
              }),
            },
            EXECUTION_UPDATED: [
              {
                guard: 'updateEndsExecution',
                target: 'running.deciding',
                actions: ['storeExecution', assign({ pausedStepId: null })],
              },
              {
                guard: 'pausedStepNoLongerNext',
                target: 'running.deciding',
                actions: ['storeExecution', assign({ pausedStepId: null })],
              },
              { actions: 'storeExecution' },
            ],
            // Running the paused step by hand does what Resume would have done.
            STEP_EXECUTED: [
              {
                guard: 'executedPausedStep',
                target: 'running.deciding',
                actions: ['endManualRun', 'storeExecution', 'askRefresh', assign({ pausedStepId: null })],
              },
              { actions: ['endManualRun', 'storeExecution', 'askRefresh'] },
            ],
          },
        },
        complete: {
          on: {
            EXECUTE_ALL: { target: 'running', actions: ['storeExecution', assign({ failure: null })] },
          },
        },
        // Paused by hand: the execution stopped, completed or failed, or a run failed. Execute All or a
        // step's own Execute takes QuickRun up again.
        stopped: {
          on: {
            EXECUTE_ALL: { target: 'running', actions: ['storeExecution', assign({ failure: null })] },
            STEP_EXECUTE_STARTED: {
              target: 'running',
              actions: ['countManualRun', assign({ failure: null })],
            },
          },
        },
      },
    },
    refresh: {
      initial: 'ready',
      states: {
        ready: {
          on: { REFRESH_EXECUTION: { target: 'throttled', actions: 'refreshExecution' } },
        },
        throttled: {
          on: { REFRESH_EXECUTION: { actions: assign({ refreshWanted: true }) } },
          after: {
            refreshThrottle: [
              {
                guard: 'refreshWanted',
                target: 'throttled',
                reenter: true,
                actions: ['refreshExecution', assign({ refreshWanted: false })],
              },
              { target: 'ready' },
            ],
          },
        },
      },
    },
  },
});

export type QuickRunSnapshot = SnapshotFrom<typeof quickRunMachine>;

export function quickRunStatusOf(snapshot: QuickRunSnapshot): QuickRunStatus {
  if (snapshot.matches({ quickRun: 'running' })) return 'running';
  if (snapshot.matches({ quickRun: 'paused' })) return 'paused';
  if (snapshot.matches({ quickRun: 'complete' })) return 'complete';
  if (snapshot.matches({ quickRun: 'stopped' })) return 'stopped';
  return 'idle';
}
