import { describe, expect, it } from 'vitest';
import { newStepBody } from '@/features/flow-workspace/api/create-step';
import { modeOf } from '@/features/flow-workspace/workspace/components/flow-workspace-page';
import { versionsOf } from '@/features/flow-workspace/workspace/components/step-results';
import type { Execution } from '@/lib/execution-stream';
import { initialState } from '../../../../../domain/execution';
import { aFlowStep } from '../../../../../domain/execution/testing';
import type { CacheItem, Review, StepResult } from '../../../../../domain/execution/types';
import type { Step } from '../../../../../domain/flow';
import { executeButtonsFor } from './execute-buttons';
import { isNotLatest } from './run-mode';
import { stepDisplayStatus } from './step-status-icon';

const step = (overrides: Partial<Step> = {}): Step =>
  aFlowStep(1, { id: 's1', name: 'Phân tích', systemPrompt: '', ...overrides });

const execution = (cache: CacheItem[], currentStep = 1): Execution => ({
  ...initialState(),
  exists: true,
  id: 'e1',
  executionCache: cache,
  currentStep,
  steps: [step(), step({ id: 's2', order: 2 })],
  version: 1,
});

describe('execute buttons', () => {
  it('offers one Execute while the step has no work in the cache', () => {
    expect(executeButtonsFor(step(), null).map((b) => b.label)).toEqual(['Execute']);
  });

  it('offers one button per pending loop iteration', () => {
    const loop = step({ outputMode: 'loop', maxLoopIterations: 3 });
    const cache: CacheItem[] = [
      { id: 'c1', stepId: 's1', status: 'completed', loopIteration: 1 },
      { id: 'c2', stepId: 's1', status: 'pending', loopIteration: 2 },
      { id: 'c3', stepId: 's1', status: 'pending', loopIteration: 3 },
    ];
    expect(executeButtonsFor(loop, execution(cache)).map((b) => [b.label, b.loopIteration])).toEqual([
      ['Execute (lần 2)', 2],
      ['Execute (lần 3)', 3],
    ]);
  });

  it('offers a re-run once the step is done', () => {
    const cache: CacheItem[] = [{ id: 'c1', stepId: 's1', status: 'completed', loopIteration: 0 }];
    expect(executeButtonsFor(step(), execution(cache))).toEqual([
      { key: 'rerun', label: 'Re-run', rerun: true },
    ]);
  });
});

describe('step status', () => {
  it('follows the execution currentStep', () => {
    const current = execution([], 2);
    expect(stepDisplayStatus(current, step({ order: 1 }))).toBe('completed');
    expect(stepDisplayStatus(current, step({ order: 2 }))).toBe('running');
    expect(stepDisplayStatus(current, step({ order: 3 }))).toBe('pending');
    expect(stepDisplayStatus(null, step({ order: 1 }))).toBe('pending');
  });

  it('shows the step a stopped execution stopped at as stopped, not running', () => {
    const stopped = { ...execution([], 2), status: 'stopped' as const };
    expect(stepDisplayStatus(stopped, step({ order: 1 }))).toBe('completed');
    expect(stepDisplayStatus(stopped, step({ order: 2 }))).toBe('stopped');
    expect(stepDisplayStatus(stopped, step({ order: 3 }))).toBe('pending');
  });

  it('shows the step at currentStep that needs input as waiting for it until it runs', () => {
    const needsInput = step({ id: 's2', order: 2, requiresUserInput: true });
    const waiting = execution([], 2);
    expect(stepDisplayStatus(waiting, needsInput)).toBe('input');
    const running = {
      ...waiting,
      runs: [
        {
          runId: 'r1',
          stepId: 's2',
          stepOrder: 2,
          cacheItemId: null,
          loopIteration: 0,
          status: 'running' as const,
          startedAt: '2026-01-01T00:00:00.000Z',
        },
      ],
    };
    expect(stepDisplayStatus(running, needsInput)).toBe('running');
  });

  it('shows a step whose results wait for review as waiting for it, and the next one as pending, not running', () => {
    const review: Review = {
      id: 'review-1',
      stepId: 's1',
      runId: 'r1',
      resultIds: ['result-1'],
      by: 'role',
      userIds: [],
      role: 'reviewer',
      approvalsNeeded: 1,
      selfApproval: false,
      requestedBy: 'user-1',
      requestedAt: '2026-01-01T00:00:00.000Z',
      dueAt: null,
      onDue: null,
      note: null,
      status: 'pending',
      approvalsGiven: [],
      rejection: null,
      decidedAt: null,
      due: null,
      ownersToo: false,
    };
    const waiting = { ...execution([], 2), reviews: [review] };
    expect(stepDisplayStatus(waiting, step({ order: 1 }))).toBe('review');
    expect(stepDisplayStatus(waiting, step({ id: 's2', order: 2 }))).toBe('pending');
    const approved = { ...waiting, reviews: [{ ...review, status: 'approved' as const }] };
    expect(stepDisplayStatus(approved, step({ order: 1 }))).toBe('completed');
    expect(stepDisplayStatus(approved, step({ id: 's2', order: 2 }))).toBe('running');
  });
});

describe('results versions', () => {
  it('groups results by run, oldest first', () => {
    const result = (id: string, runId: string) => ({ id, runId }) as StepResult;
    const versions = versionsOf([result('a', 'r1'), result('b', 'r1'), result('c', 'r2')]);
    expect(versions.map((v) => v.map((r) => r.id))).toEqual([['a', 'b'], ['c']]);
  });

  it("puts a loop's iterations side by side: version n is the n-th run of each iteration", () => {
    const result = (id: string, runId: string, loopIteration: number) =>
      ({ id, runId, loopIteration }) as StepResult;
    const versions = versionsOf([
      result('second', 'r1', 2),
      result('first', 'r2', 1),
      result('first again', 'r3', 1),
    ]);
    expect(versions.map((v) => v.map((r) => r.id))).toEqual([['first', 'second'], ['first again']]);
  });
});

describe('workspace mode', () => {
  it('starts in run, chat or master when asked, else edit', () => {
    expect(modeOf('mode=run')).toBe('run');
    expect(modeOf('?mode=chat')).toBe('chat');
    expect(modeOf('mode=master')).toBe('master');
    expect(modeOf('mode=other')).toBe('edit');
    expect(modeOf('')).toBe('edit');
  });
});

describe('new step', () => {
  it('is named and ordered after the existing steps, with every default of a new step', () => {
    expect(newStepBody('f1', [{ order: 1 }, { order: 2 }])).toMatchObject({
      flowId: 'f1',
      name: 'New Step 3',
      order: 3,
      outputMode: 'single',
      inputSources: [],
      choices: [],
      loopTargetStepId: null,
      maxLoopIterations: 1,
      currentLoopIteration: 0,
      requiresUserInput: false,
    });
  });

  it('after a deleted step, goes after the last one: orders are never shared', () => {
    expect(newStepBody('f1', [{ order: 1 }, { order: 3 }])).toMatchObject({ name: 'New Step 3', order: 4 });
  });
});

describe('the note on an execution a link named', () => {
  it('shows only once the latest execution is known and is another one', () => {
    expect(isNotLatest('e1', { isSuccess: false })).toBe(false);
    expect(isNotLatest('e1', { isSuccess: true, data: { id: 'e1' } })).toBe(false);
    expect(isNotLatest('e1', { isSuccess: true, data: { id: 'e2' } })).toBe(true);
    expect(isNotLatest('e1', { isSuccess: true, data: null })).toBe(true);
  });
});
