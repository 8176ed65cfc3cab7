import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { DEFAULT_USER_INPUT } from '../domain/execution';
import {
  aStep,
  EXECUTION_ID,
  executionStarted,
  fold,
  NOW,
  ranStep,
  stepRunStarted,
} from '../domain/execution/testing';
import type { ExecutionEvent } from '../domain/execution/types';
import type { StepSnapshot } from '../domain/flow';
import {
  AUTO_EXECUTE_DELAY_MS,
  type QuickRunEmitted,
  type QuickRunExecution,
  quickRunMachine,
  quickRunStatusOf,
  REFRESH_THROTTLE_MS,
  type RunStepInput,
  type RunStepOutput,
} from './quick-run';

const one = aStep(1);
const two = aStep(2, { requiresUserInput: true });
const three = aStep(3);

const stopped: ExecutionEvent = { type: 'ExecutionStopped', data: { at: NOW } };
const completed: ExecutionEvent = { type: 'ExecutionCompleted', data: { at: NOW } };

/** The execution of these steps after the given events, as the page holds it (with its version). */
function executionOf(steps: StepSnapshot[], ...events: ExecutionEvent[]): QuickRunExecution {
  // Cache item ids c1, c2, ... in execution order (a loop step takes one per iteration).
  const ids = Array.from({ length: 20 }, (_, i) => `c${i + 1}`);
  const history = [executionStarted(steps, ids), ...events];
  return { ...fold(history), version: history.length };
}

/** The three-step flow: step 2 requires input. */
const flowAfter = (...events: ExecutionEvent[]) => executionOf([one, two, three], ...events);

const stepOneDone = ranStep(one, 'r1', 'c1', 'res-1', 'Kết quả 1');
const stepTwoDone = ranStep(two, 'r2', 'c2', 'res-2', 'Kết quả 2');
const stepThreeDone = ranStep(three, 'r3', 'c3', 'res-3', 'Kết quả 3');
/** Step 3 of the flow of steps 1 and 3 only, where its work is the second cache item. */
const thirdOfTwoDone = ranStep(three, 'r3', 'c2', 'res-3', 'Kết quả 3');

/** A QuickRun whose runs wait until the test answers them, with everything it emits recorded. */
function quickRun() {
  const runs: RunStepInput[] = [];
  const pending: { resolve: (output: RunStepOutput) => void; reject: (error: unknown) => void }[] = [];
  const refreshExecution = vi.fn();
  const machine = quickRunMachine.provide({
    actors: {
      runStep: fromPromise<RunStepOutput, RunStepInput>(({ input }) => {
        runs.push(input);
        return new Promise((resolve, reject) => pending.push({ resolve, reject }));
      }),
    },
    actions: { refreshExecution },
  });
  const actor = createActor(machine);
  const emitted: QuickRunEmitted[] = [];
  actor.on('*', (event) => emitted.push(event));
  actor.start();
  return {
    actor,
    runs,
    emitted,
    refreshExecution,
    status: () => quickRunStatusOf(actor.getSnapshot()),
    /** The oldest run still waiting answers with this execution. */
    answer: async (execution: QuickRunExecution) => {
      pending.shift()!.resolve({ execution });
      await vi.advanceTimersByTimeAsync(0);
    },
    fail: async (error: unknown) => {
      pending.shift()!.reject(error);
      await vi.advanceTimersByTimeAsync(0);
    },
  };
}

const wait = (ms: number) => vi.advanceTimersByTimeAsync(ms);

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('QuickRun', () => {
  it('waits 800 ms, then runs the first pending step with the default input', async () => {
    const q = quickRun();
    expect(q.status()).toBe('idle');

    q.actor.send({ type: 'EXECUTE_ALL', execution: flowAfter() });
    expect(q.status()).toBe('running');
    await wait(AUTO_EXECUTE_DELAY_MS - 1);
    expect(q.runs).toEqual([]);

    await wait(1);
    expect(q.runs).toEqual([{ executionId: EXECUTION_ID, stepId: one.id, userInput: DEFAULT_USER_INPUT }]);
  });

  it('does not run an item that was completed during the wait, and goes on with the next', async () => {
    const q = quickRun();
    const plain = executionOf([one, three]);
    q.actor.send({ type: 'EXECUTE_ALL', execution: plain });
    await wait(300);
    // Step 1 ran elsewhere (another tab) while QuickRun waited.
    q.actor.send({ type: 'EXECUTION_UPDATED', execution: executionOf([one, three], ...stepOneDone) });

    await wait(AUTO_EXECUTE_DELAY_MS - 300);
    expect(q.runs).toEqual([]);
    expect(q.status()).toBe('running');

    await wait(AUTO_EXECUTE_DELAY_MS);
    expect(q.runs.map((run) => run.stepId)).toEqual([three.id]);
  });

  it('runs the next step 800 ms after a success, with the input typed for it', async () => {
    const q = quickRun();
    q.actor.send({ type: 'INPUT_CHANGED', stepId: two.id, input: 'Thị trường Việt Nam' });
    q.actor.send({ type: 'EXECUTE_ALL', execution: flowAfter() });
    await wait(AUTO_EXECUTE_DELAY_MS);
    await q.answer(flowAfter(...stepOneDone));
    expect(q.emitted).toContainEqual({ type: 'stepExecuted', stepId: one.id });

    await wait(AUTO_EXECUTE_DELAY_MS - 1);
    expect(q.runs).toHaveLength(1);
    await wait(1);
    expect(q.runs[1]).toEqual({
      executionId: EXECUTION_ID,
      stepId: two.id,
      userInput: 'Thị trường Việt Nam',
    });
    expect(q.status()).toBe('running');
  });

  it('pauses on a step that requires input until Resume, then runs it at once with what was typed', async () => {
    const q = quickRun();
    q.actor.send({ type: 'EXECUTE_ALL', execution: flowAfter() });
    await wait(AUTO_EXECUTE_DELAY_MS);
    await q.answer(flowAfter(...stepOneDone));

    expect(q.status()).toBe('paused');
    expect(q.actor.getSnapshot().context.pausedStepId).toBe(two.id);
    expect(q.emitted.filter((e) => e.type === 'paused')).toEqual([{ type: 'paused', stepId: two.id }]);
    // Updates while paused neither run anything nor announce the pause again.
    q.actor.send({ type: 'EXECUTION_UPDATED', execution: flowAfter(...stepOneDone) });
    await wait(5 * AUTO_EXECUTE_DELAY_MS);
    expect(q.runs).toHaveLength(1);
    expect(q.emitted.filter((e) => e.type === 'paused')).toHaveLength(1);

    // Resume with a blank Input box stays paused: the server would refuse the run.
    q.actor.send({ type: 'INPUT_CHANGED', stepId: two.id, input: '   ' });
    q.actor.send({ type: 'RESUME' });
    expect(q.status()).toBe('paused');
    expect(q.runs).toHaveLength(1);

    q.actor.send({ type: 'INPUT_CHANGED', stepId: two.id, input: 'Đối thủ: A, B, C' });
    q.actor.send({ type: 'RESUME' });
    await wait(0);
    expect(q.status()).toBe('running');
    expect(q.actor.getSnapshot().context.pausedStepId).toBeNull();
    expect(q.runs[1]).toEqual({ executionId: EXECUTION_ID, stepId: two.id, userInput: 'Đối thủ: A, B, C' });

    await q.answer(flowAfter(...stepOneDone, ...stepTwoDone));
    await wait(AUTO_EXECUTE_DELAY_MS);
    expect(q.runs[2]).toMatchObject({ stepId: three.id, userInput: DEFAULT_USER_INPUT });
    await q.answer(flowAfter(...stepOneDone, ...stepTwoDone, ...stepThreeDone, completed));
    expect(q.status()).toBe('complete');
  });

  it('pauses instead of running when the input is cleared during the wait', async () => {
    const q = quickRun();
    q.actor.send({ type: 'INPUT_CHANGED', stepId: two.id, input: 'có input' });
    q.actor.send({ type: 'EXECUTE_ALL', execution: flowAfter(...stepOneDone) });
    await wait(400);
    q.actor.send({ type: 'INPUT_CHANGED', stepId: two.id, input: '' });
    await wait(400);

    expect(q.runs).toEqual([]);
    expect(q.status()).toBe('paused');
  });

  it('clears the pause when the paused step is run by hand and goes on', async () => {
    const q = quickRun();
    q.actor.send({ type: 'EXECUTE_ALL', execution: flowAfter(...stepOneDone) });
    expect(q.status()).toBe('paused');

    q.actor.send({ type: 'STEP_EXECUTE_STARTED', stepId: two.id });
    expect(q.status()).toBe('paused');
    q.actor.send({
      type: 'STEP_EXECUTED',
      stepId: two.id,
      execution: flowAfter(...stepOneDone, ...stepTwoDone),
    });
    expect(q.status()).toBe('running');
    expect(q.actor.getSnapshot().context.pausedStepId).toBeNull();

    await wait(AUTO_EXECUTE_DELAY_MS);
    expect(q.runs.map((run) => run.stepId)).toEqual([three.id]);
  });

  it('stays paused when another step is run by hand', async () => {
    const q = quickRun();
    q.actor.send({ type: 'EXECUTE_ALL', execution: flowAfter(...stepOneDone) });
    q.actor.send({ type: 'STEP_EXECUTE_STARTED', stepId: one.id });
    q.actor.send({
      type: 'STEP_EXECUTED',
      stepId: one.id,
      execution: flowAfter(...stepOneDone, ...ranStep(one, 'r1b', null, 'res-1b', 'Version 2')),
    });

    expect(q.status()).toBe('paused');
    expect(q.emitted.filter((e) => e.type === 'paused')).toHaveLength(1);
    await wait(2 * AUTO_EXECUTE_DELAY_MS);
    expect(q.runs).toEqual([]);
  });

  it('STOP during the wait clears the timer: nothing runs after it', async () => {
    const q = quickRun();
    q.actor.send({ type: 'EXECUTE_ALL', execution: flowAfter() });
    await wait(500);
    q.actor.send({ type: 'STOP' });

    expect(q.status()).toBe('idle');
    await wait(10 * AUTO_EXECUTE_DELAY_MS);
    expect(q.runs).toEqual([]);
    // Updates while idle run nothing either.
    q.actor.send({ type: 'EXECUTION_UPDATED', execution: { ...flowAfter(), version: 5 } });
    await wait(10 * AUTO_EXECUTE_DELAY_MS);
    expect(q.runs).toEqual([]);
  });

  it('STOP while paused turns QuickRun off; Execute All starts it again', async () => {
    const q = quickRun();
    q.actor.send({ type: 'EXECUTE_ALL', execution: flowAfter(...stepOneDone) });
    q.actor.send({ type: 'STOP' });
    expect(q.status()).toBe('idle');
    expect(q.actor.getSnapshot().context.pausedStepId).toBeNull();

    q.actor.send({ type: 'INPUT_CHANGED', stepId: two.id, input: 'x' });
    q.actor.send({ type: 'EXECUTE_ALL', execution: flowAfter(...stepOneDone) });
    await wait(AUTO_EXECUTE_DELAY_MS);
    expect(q.runs.map((run) => run.stepId)).toEqual([two.id]);
  });

  it('an execution stopped elsewhere during the wait clears the timer and marks QuickRun paused by hand', async () => {
    const q = quickRun();
    q.actor.send({ type: 'EXECUTE_ALL', execution: flowAfter() });
    await wait(300);
    q.actor.send({ type: 'EXECUTION_UPDATED', execution: flowAfter(stopped) });

    expect(q.status()).toBe('stopped');
    await wait(10 * AUTO_EXECUTE_DELAY_MS);
    expect(q.runs).toEqual([]);
  });

  it('an execution stopped while QuickRun is paused stops it too', async () => {
    const q = quickRun();
    q.actor.send({ type: 'EXECUTE_ALL', execution: flowAfter(...stepOneDone) });
    q.actor.send({ type: 'EXECUTION_UPDATED', execution: flowAfter(...stepOneDone, stopped) });

    expect(q.status()).toBe('stopped');
    expect(q.actor.getSnapshot().context.pausedStepId).toBeNull();
  });

  it('an execution that failed or stopped during a run ends QuickRun without waiting for the answer', async () => {
    const q = quickRun();
    q.actor.send({ type: 'EXECUTE_ALL', execution: flowAfter() });
    await wait(AUTO_EXECUTE_DELAY_MS);
    const failed = {
      ...flowAfter(stepRunStarted(one, 'r1', { cacheItemId: 'c1' })),
      status: 'failed' as const,
    };
    q.actor.send({ type: 'EXECUTION_UPDATED', execution: failed });

    expect(q.status()).toBe('stopped');
  });

  it('an execution completed elsewhere ends QuickRun as complete, with no run', async () => {
    const q = quickRun();
    const plain = executionOf([one, three]);
    q.actor.send({ type: 'EXECUTE_ALL', execution: plain });
    await wait(100);
    q.actor.send({
      type: 'EXECUTION_UPDATED',
      execution: executionOf([one, three], ...stepOneDone, ...thirdOfTwoDone, completed),
    });

    expect(q.status()).toBe('complete');
    await wait(10 * AUTO_EXECUTE_DELAY_MS);
    expect(q.runs).toEqual([]);
  });

  it('is complete at once when nothing is pending', async () => {
    const q = quickRun();
    q.actor.send({
      type: 'EXECUTE_ALL',
      execution: flowAfter(...stepOneDone, ...stepTwoDone, ...stepThreeDone, completed),
    });

    expect(q.status()).toBe('complete');
    await wait(10 * AUTO_EXECUTE_DELAY_MS);
    expect(q.runs).toEqual([]);
  });

  it('a stopped execution with work left puts QuickRun straight into stopped', () => {
    const q = quickRun();
    q.actor.send({ type: 'EXECUTE_ALL', execution: flowAfter(stopped) });
    expect(q.status()).toBe('stopped');
  });

  it('a failed run stops QuickRun and reports the error; nothing runs after it', async () => {
    const q = quickRun();
    q.actor.send({ type: 'EXECUTE_ALL', execution: flowAfter() });
    await wait(AUTO_EXECUTE_DELAY_MS);
    const error = new Error('502: model unavailable');
    await q.fail(error);

    expect(q.status()).toBe('stopped');
    expect(q.actor.getSnapshot().context.failure).toEqual({ stepId: one.id, error });
    expect(q.emitted).toContainEqual({ type: 'executeFailed', stepId: one.id, error });
    expect(q.emitted.some((e) => e.type === 'stepExecuted')).toBe(false);
    q.actor.send({ type: 'EXECUTION_UPDATED', execution: { ...flowAfter(), version: 7 } });
    await wait(10 * AUTO_EXECUTE_DELAY_MS);
    expect(q.runs).toHaveLength(1);
  });

  it("a step's own Execute clears the stopped flag: QuickRun goes on after that run", async () => {
    const q = quickRun();
    q.actor.send({ type: 'EXECUTE_ALL', execution: executionOf([one, three]) });
    await wait(AUTO_EXECUTE_DELAY_MS);
    await q.fail(new Error('boom'));
    expect(q.status()).toBe('stopped');

    q.actor.send({ type: 'STEP_EXECUTE_STARTED', stepId: one.id });
    expect(q.status()).toBe('running');
    expect(q.actor.getSnapshot().context.failure).toBeNull();
    // Not beside the run the user started.
    await wait(2 * AUTO_EXECUTE_DELAY_MS);
    expect(q.runs).toHaveLength(1);

    q.actor.send({
      type: 'STEP_EXECUTED',
      stepId: one.id,
      execution: executionOf([one, three], ...stepOneDone),
    });
    await wait(AUTO_EXECUTE_DELAY_MS);
    expect(q.runs.map((run) => run.stepId)).toEqual([one.id, three.id]);
  });

  it('a manual Execute during the wait keeps QuickRun from running beside it', async () => {
    const q = quickRun();
    q.actor.send({ type: 'EXECUTE_ALL', execution: executionOf([one, three]) });
    await wait(200);
    q.actor.send({ type: 'STEP_EXECUTE_STARTED', stepId: one.id });
    await wait(2 * AUTO_EXECUTE_DELAY_MS);
    expect(q.runs).toEqual([]);

    q.actor.send({ type: 'STEP_EXECUTE_FAILED', stepId: one.id });
    await wait(AUTO_EXECUTE_DELAY_MS);
    expect(q.runs.map((run) => run.stepId)).toEqual([one.id]);
  });

  it('waits while a run is in progress on the execution, and decides again when it ends', async () => {
    const q = quickRun();
    const runningOne = executionOf([one, three], stepRunStarted(one, 'r1', { cacheItemId: 'c1' }));
    q.actor.send({ type: 'EXECUTE_ALL', execution: runningOne });
    await wait(3 * AUTO_EXECUTE_DELAY_MS);
    expect(q.runs).toEqual([]);

    q.actor.send({ type: 'EXECUTION_UPDATED', execution: executionOf([one, three], ...stepOneDone) });
    await wait(AUTO_EXECUTE_DELAY_MS);
    expect(q.runs.map((run) => run.stepId)).toEqual([three.id]);
  });

  it('runs a loop step one iteration at a time, naming the iteration', async () => {
    const loop = aStep(1, { outputMode: 'loop', maxLoopIterations: 2 });
    const q = quickRun();
    q.actor.send({ type: 'EXECUTE_ALL', execution: executionOf([loop]) });
    await wait(AUTO_EXECUTE_DELAY_MS);
    expect(q.runs[0]).toMatchObject({ stepId: loop.id, loopIteration: 1 });

    await q.answer(
      executionOf([loop], ...ranStep(loop, 'r1', 'c1', 'res-1', 'Loop 1').map(withIteration(1))),
    );
    await wait(AUTO_EXECUTE_DELAY_MS);
    expect(q.runs[1]).toMatchObject({ stepId: loop.id, loopIteration: 2 });
  });

  it('an older answer never takes the execution back', async () => {
    const q = quickRun();
    q.actor.send({ type: 'EXECUTE_ALL', execution: executionOf([one, three]) });
    await wait(AUTO_EXECUTE_DELAY_MS);
    const newer = { ...executionOf([one, three], ...stepOneDone, ...thirdOfTwoDone, completed), version: 50 };
    // The pushed completion of everything lands before the run's own (older) answer.
    q.actor.send({ type: 'EXECUTION_UPDATED', execution: newer });
    await q.answer(executionOf([one, three], ...stepOneDone));

    expect(q.actor.getSnapshot().context.execution).toBe(newer);
    expect(q.status()).toBe('complete');
  });
});

describe('QuickRun refresh after a success', () => {
  it('reads the execution again at most once per 500 ms, with one trailing read', async () => {
    const q = quickRun();
    const after = flowAfter(...stepOneDone);
    const succeeded = () => q.actor.send({ type: 'STEP_EXECUTED', stepId: one.id, execution: after });

    succeeded();
    expect(q.refreshExecution).toHaveBeenCalledTimes(1);
    await wait(100);
    succeeded();
    succeeded();
    expect(q.refreshExecution).toHaveBeenCalledTimes(1);

    await wait(REFRESH_THROTTLE_MS - 101);
    expect(q.refreshExecution).toHaveBeenCalledTimes(1);
    await wait(1);
    expect(q.refreshExecution).toHaveBeenCalledTimes(2);

    // Nothing more was asked for: the next window passes quietly and then a success reads at once.
    await wait(REFRESH_THROTTLE_MS);
    expect(q.refreshExecution).toHaveBeenCalledTimes(2);
    succeeded();
    expect(q.refreshExecution).toHaveBeenCalledTimes(3);
  });

  it("refreshes after QuickRun's own successful runs, not after a failed one", async () => {
    const q = quickRun();
    q.actor.send({ type: 'EXECUTE_ALL', execution: executionOf([one, three]) });
    await wait(AUTO_EXECUTE_DELAY_MS);
    await q.answer(executionOf([one, three], ...stepOneDone));
    expect(q.refreshExecution).toHaveBeenCalledTimes(1);

    await wait(AUTO_EXECUTE_DELAY_MS);
    await q.fail(new Error('boom'));
    await wait(REFRESH_THROTTLE_MS);
    expect(q.refreshExecution).toHaveBeenCalledTimes(1);
  });
});

function withIteration(loopIteration: number) {
  return (event: ExecutionEvent): ExecutionEvent =>
    event.type === 'StepRunStarted' ? { ...event, data: { ...event.data, loopIteration } } : event;
}
