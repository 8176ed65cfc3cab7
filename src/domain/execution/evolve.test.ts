import { describe, expect, it } from 'vitest';
import { decider } from './decider';
import { firstPendingCacheItem, nextQueueItem, progress, resultsOfStep, runningRun } from './queries';
import {
  aStep,
  draft,
  EXECUTION_ID,
  executionStarted,
  FLOW_ID,
  fold,
  NOW,
  ranStep,
  stepRunStarted,
  stepRunSucceeded,
} from './testing';
import { DEFAULT_USER_INPUT, type ExecutionEvent } from './types';

const LATER = '2025-01-02T04:00:00.000Z';
const one = aStep(1);
const loop = aStep(2, { outputMode: 'loop', maxLoopIterations: 3 });
const three = aStep(3);
const started = executionStarted([three, one, loop], ['c1', 'c2a', 'c2b', 'c2c', 'c3']);

describe('evolve', () => {
  it('starts from nothing', () => {
    expect(decider.initialState()).toMatchObject({
      exists: false,
      status: 'running',
      currentStep: 1,
      results: [],
      runs: [],
    });
  });

  describe('ExecutionStarted', () => {
    it('lays out one cache item per step and one per loop iteration, in step order', () => {
      const state = fold([started]);
      expect(state).toMatchObject({
        exists: true,
        id: EXECUTION_ID,
        userId: 'user-1',
        flowId: FLOW_ID,
        status: 'running',
        currentStep: 1,
        startedAt: NOW,
        completedAt: null,
      });
      expect(state.steps.map((s) => s.order)).toEqual([1, 2, 3]);
      expect(state.executionCache).toEqual([
        { id: 'c1', stepId: one.id, status: 'pending', loopIteration: 0 },
        { id: 'c2a', stepId: loop.id, status: 'pending', loopIteration: 1 },
        { id: 'c2b', stepId: loop.id, status: 'pending', loopIteration: 2 },
        { id: 'c2c', stepId: loop.id, status: 'pending', loopIteration: 3 },
        { id: 'c3', stepId: three.id, status: 'pending', loopIteration: 0 },
      ]);
      expect(state.executionQueue).toEqual([
        { stepId: one.id, isCompleted: false, loopIteration: 0 },
        { stepId: loop.id, isCompleted: false, loopIteration: 1 },
        { stepId: three.id, isCompleted: false, loopIteration: 0 },
      ]);
    });

    it('an execution of a flow without steps has no work and progress 0', () => {
      const state = fold([executionStarted([], [])]);
      expect(state).toMatchObject({ exists: true, executionCache: [], executionQueue: [], currentStep: 1 });
      expect(progress(state)).toBe(0);
    });
  });

  describe('step runs', () => {
    it('StepRunStarted records a running run', () => {
      const state = fold([started, stepRunStarted(one, 'r1', { cacheItemId: 'c1' })]);
      expect(state.runs).toEqual([
        {
          runId: 'r1',
          stepId: one.id,
          stepOrder: 1,
          cacheItemId: 'c1',
          loopIteration: 0,
          status: 'running',
          startedAt: NOW,
          userInput: 'input',
        },
      ]);
      expect(runningRun(state)?.runId).toBe('r1');
      expect(runningRun(state, three.id)).toBeNull();
    });

    it('a run keeps the server instance making its model call, when its start names one', () => {
      const named = stepRunStarted(one, 'r1', { cacheItemId: 'c1' });
      if (named.type === 'StepRunStarted') named.data.instanceId = 4;
      expect(fold([started, named]).runs[0]?.instanceId).toBe(4);
      expect(fold([started, stepRunStarted(one, 'r1', { cacheItemId: 'c1' })]).runs[0]).not.toHaveProperty(
        'instanceId',
      );
    });

    it('a run keeps the unreviewed results its prompt used; a start without them (older events) has none', () => {
      const use = { resultId: 'res1', stepId: one.id, stepOrder: 1, label: 'Branch 1' };
      const unreviewed = stepRunStarted(three, 'r3', { cacheItemId: 'c3' });
      if (unreviewed.type === 'StepRunStarted') unreviewed.data.unreviewedResults = [use];
      expect(fold([started, unreviewed]).runs[0]?.unreviewedResults).toEqual([use]);
      const older = stepRunStarted(three, 'r3', { cacheItemId: 'c3' });
      if (older.type === 'StepRunStarted') delete older.data.unreviewedResults;
      expect(fold([started, older]).runs[0]).not.toHaveProperty('unreviewedResults');
    });

    it('a run keeps what the user sent it, but not the default input written where they sent nothing', () => {
      const sentNothing = stepRunStarted(one, 'r1', { cacheItemId: 'c1' });
      if (sentNothing.type === 'StepRunStarted') sentNothing.data.userInput = DEFAULT_USER_INPUT;
      expect(fold([started, sentNothing]).runs[0]).not.toHaveProperty('userInput');
    });

    it('StepRunSucceeded adds result rows, completes the cache item and moves the current step', () => {
      const state = fold([started, ...ranStep(one, 'r1', 'c1', 'res1', 'Answer', LATER)]);
      expect(state.results).toEqual([
        {
          id: 'res1',
          executionId: EXECUTION_ID,
          stepId: one.id,
          stepOrder: 1,
          runId: 'r1',
          label: 'Branch 1',
          branchName: null,
          branchPath: null,
          choiceIndex: null,
          loopIteration: null,
          result: 'Answer',
          approved: false,
          createdAt: LATER,
        },
      ]);
      expect(state.runs[0]!.status).toBe('succeeded');
      expect(state.executionCache[0]!.status).toBe('completed');
      expect(state.executionQueue[0]!.isCompleted).toBe(true);
      expect(state.currentStep).toBe(2);
      expect(nextQueueItem(state)?.stepId).toBe(loop.id);
      expect(progress(state)).toBeCloseTo((2 / 3) * 100);
    });

    it('a loop step stays in the queue until its last iteration is done', () => {
      const loopRun = (n: number, cacheItemId: string): ExecutionEvent[] => [
        stepRunStarted(loop, `loop-${n}`, { cacheItemId, loopIteration: n }),
        stepRunSucceeded(`loop-${n}`, [
          draft(`loop-res-${n}`, `turn ${n}`, { label: `Loop ${n}`, loopIteration: n }),
        ]),
      ];
      const afterTwo = fold([
        started,
        ...ranStep(one, 'r1', 'c1', 'res1', 'x'),
        ...loopRun(1, 'c2a'),
        ...loopRun(2, 'c2b'),
      ]);
      expect(afterTwo.executionQueue[1]).toEqual({ stepId: loop.id, isCompleted: false, loopIteration: 3 });
      expect(afterTwo.currentStep).toBe(2);
      expect(firstPendingCacheItem(afterTwo, loop.id)?.id).toBe('c2c');

      const afterThree = fold(loopRun(3, 'c2c'), afterTwo);
      expect(afterThree.executionQueue[1]).toEqual({ stepId: loop.id, isCompleted: true, loopIteration: 3 });
      expect(afterThree.currentStep).toBe(3);
      expect(resultsOfStep(afterThree, loop.id).map((r) => r.label)).toEqual(['Loop 1', 'Loop 2', 'Loop 3']);
    });

    it('a choice result is approved as it arrives', () => {
      const state = fold([
        started,
        stepRunStarted(one, 'r1', { cacheItemId: 'c1' }),
        stepRunSucceeded('r1', [draft('res1', 'B', { label: 'path: B', choiceIndex: 1, branchPath: 'B' })]),
      ]);
      expect(state.results[0]!.approved).toBe(true);
    });

    it('a re-run adds a new version and leaves the cache alone', () => {
      const first = fold([started, ...ranStep(one, 'r1', 'c1', 'res1', 'v1')]);
      const second = fold(ranStep(one, 'r2', null, 'res2', 'v2'), first);
      expect(resultsOfStep(second, one.id).map((r) => r.result)).toEqual(['v1', 'v2']);
      expect(second.executionCache).toEqual(first.executionCache);
      expect(second.currentStep).toBe(2);
    });

    it('StepRunFailed marks the run failed and leaves its work pending', () => {
      const state = fold([
        started,
        stepRunStarted(one, 'r1', { cacheItemId: 'c1' }),
        { type: 'StepRunFailed', data: { runId: 'r1', message: 'timeout', retryable: true, at: NOW } },
      ]);
      expect(state.runs[0]).toMatchObject({ status: 'failed', message: 'timeout' });
      expect(state.executionCache[0]!.status).toBe('pending');
      expect(runningRun(state)).toBeNull();
    });

    it('an outcome of a run it never saw start changes nothing', () => {
      const state = fold([started]);
      expect(decider.evolve(state, stepRunSucceeded('ghost', [draft('x', 'y')]))).toBe(state);
    });
  });

  describe('results', () => {
    const withResult = fold([started, ...ranStep(one, 'r1', 'c1', 'res1', 'Answer')]);

    it('ResultApproved and ResultUnapproved toggle approval', () => {
      const approved = decider.evolve(withResult, {
        type: 'ResultApproved',
        data: { resultId: 'res1', at: NOW },
      });
      expect(approved.results[0]!.approved).toBe(true);
      const unapproved = decider.evolve(approved, {
        type: 'ResultUnapproved',
        data: { resultId: 'res1', at: NOW },
      });
      expect(unapproved.results[0]!.approved).toBe(false);
    });

    it('ResultEdited replaces text and label', () => {
      const state = decider.evolve(withResult, {
        type: 'ResultEdited',
        data: { resultId: 'res1', before: 'Answer', after: 'Better', label: 'Mine', at: NOW },
      });
      expect(state.results[0]).toMatchObject({ result: 'Better', label: 'Mine' });
    });

    it('ResultDeleted removes the result', () => {
      const state = decider.evolve(withResult, {
        type: 'ResultDeleted',
        data: { resultId: 'res1', content: 'Answer', at: NOW },
      });
      expect(state.results).toEqual([]);
    });
  });

  describe('lifecycle', () => {
    it('ExecutionStopped and ExecutionCompleted set the status', () => {
      expect(fold([started, { type: 'ExecutionStopped', data: { at: NOW } }]).status).toBe('stopped');
      expect(fold([started, { type: 'ExecutionCompleted', data: { at: LATER } }])).toMatchObject({
        status: 'completed',
        completedAt: LATER,
      });
    });

    it('ExecutionReset brings fresh pending work and keeps every result and run', () => {
      const before = fold([
        started,
        ...ranStep(one, 'r1', 'c1', 'res1', 'kept'),
        { type: 'ExecutionCompleted', data: { at: LATER } },
      ]);
      const state = decider.evolve(before, {
        type: 'ExecutionReset',
        data: { cacheItemIds: ['n1', 'n2', 'n3', 'n4', 'n5'], at: LATER },
      });
      expect(state).toMatchObject({ status: 'running', currentStep: 1, completedAt: null });
      expect(state.executionCache.map((c) => [c.id, c.status, c.loopIteration])).toEqual([
        ['n1', 'pending', 0],
        ['n2', 'pending', 1],
        ['n3', 'pending', 2],
        ['n4', 'pending', 3],
        ['n5', 'pending', 0],
      ]);
      expect(state.executionQueue.every((q) => !q.isCompleted)).toBe(true);
      expect(state.results).toEqual(before.results);
      expect(state.runs).toEqual(before.runs);
    });

    it('currentStep passes every order once all work is done, even with gaps in the orders', () => {
      const a = aStep(1);
      const b = aStep(5);
      const state = fold([
        executionStarted([a, b], ['ca', 'cb']),
        ...ranStep(a, 'r1', 'ca', 'x1', 'x'),
        ...ranStep(b, 'r2', 'cb', 'x2', 'y'),
      ]);
      expect(state.currentStep).toBe(6);
      expect(progress(state)).toBe(100);
      expect(nextQueueItem(state)).toBeNull();
    });
  });

  describe('StepsSynced', () => {
    const done = fold([
      started,
      ...ranStep(one, 'r1', 'c1', 'res1', 'a'),
      ...[1, 2, 3].flatMap((n) => [
        stepRunStarted(loop, `l${n}`, { cacheItemId: `c2${'abc'[n - 1]}`, loopIteration: n }),
        stepRunSucceeded(`l${n}`, [draft(`lr${n}`, 'x', { label: `Loop ${n}`, loopIteration: n })]),
      ]),
      ...ranStep(three, 'r3', 'c3', 'res3', 'c'),
      { type: 'ExecutionCompleted', data: { at: LATER } },
    ]);

    it('keeps the work of remaining steps, adds work for new steps and iterations, drops removed steps', () => {
      const four = aStep(4);
      const longerLoop = { ...loop, maxLoopIterations: 4 };
      const state = decider.evolve(done, {
        type: 'StepsSynced',
        data: { steps: [four, longerLoop, one], cacheItemIds: ['new-2d', 'new-4'], at: LATER },
      });
      expect(state.steps.map((s) => s.id)).toEqual([one.id, loop.id, four.id]);
      expect(state.executionCache).toEqual([
        { id: 'c1', stepId: one.id, status: 'completed', loopIteration: 0 },
        { id: 'c2a', stepId: loop.id, status: 'completed', loopIteration: 1 },
        { id: 'c2b', stepId: loop.id, status: 'completed', loopIteration: 2 },
        { id: 'c2c', stepId: loop.id, status: 'completed', loopIteration: 3 },
        { id: 'new-2d', stepId: loop.id, status: 'pending', loopIteration: 4 },
        { id: 'new-4', stepId: four.id, status: 'pending', loopIteration: 0 },
      ]);
      expect(state.executionQueue.map((q) => q.isCompleted)).toEqual([true, false, false]);
      expect(state.currentStep).toBe(2);
      // New work reopens a completed execution.
      expect(state).toMatchObject({ status: 'running', completedAt: null });
      expect(state.results).toEqual(done.results);
    });

    it('a completed execution whose steps only got fewer stays completed', () => {
      const state = decider.evolve(done, {
        type: 'StepsSynced',
        data: { steps: [one, loop], cacheItemIds: [], at: LATER },
      });
      expect(state).toMatchObject({ status: 'completed', completedAt: LATER, currentStep: 3 });
    });
  });
});
