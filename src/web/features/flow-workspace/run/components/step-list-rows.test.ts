import { describe, expect, it } from 'vitest';
import type { Execution } from '@/lib/execution-stream';
import {
  aFlowStep,
  aStep,
  draft,
  executionStarted,
  fold,
  NOW,
  stepRunStarted,
  stepRunSucceeded,
} from '../../../../../domain/execution/testing';
import type { ExecutionEvent } from '../../../../../domain/execution/types';
import { stepListRows } from './step-list-rows';

const ideas = aStep(1, { name: 'Ý tưởng', outputMode: 'multiple' });
const pick = aStep(2, {
  name: 'Chọn hướng',
  outputMode: 'multiple_choice',
  choices: ['Ngắn', 'Dài', 'Hài hước'],
  inputSources: [ideas.id],
});
const polish = aStep(3, { name: 'Trau chuốt', outputMode: 'loop', maxLoopIterations: 2 });
const summary = aStep(4, { name: 'Tóm tắt', inputSources: [ideas.id, polish.id] });
const snapshots = [ideas, pick, polish, summary];

const steps = snapshots.map((snapshot) => aFlowStep(snapshot.order, snapshot));

const started = executionStarted(snapshots, ['c1', 'c2', 'c3-1', 'c3-2', 'c4']);
const ranIdeas: ExecutionEvent[] = [
  stepRunStarted(ideas, 'r1', { cacheItemId: 'c1' }),
  stepRunSucceeded('r1', [
    draft('idea-a', 'A', { label: 'Ngắn gọn', branchName: 'Ngắn gọn' }),
    draft('idea-b', 'B', { label: 'Branch 2' }),
  ]),
  { type: 'ResultApproved', data: { resultId: 'idea-a', at: NOW } },
];
const ranPick: ExecutionEvent[] = [
  stepRunStarted(pick, 'r2', { cacheItemId: 'c2' }),
  stepRunSucceeded('r2', [draft('picked', 'Ngắn', { label: 'path: Ngắn', choiceIndex: 0 })]),
];
const ranLoop = (iteration: number, runId: string, resultId: string): ExecutionEvent[] => [
  stepRunStarted(polish, runId, { cacheItemId: `c3-${iteration}`, loopIteration: iteration }),
  stepRunSucceeded(runId, [
    draft(resultId, `lần ${iteration}`, { label: `Loop ${iteration}`, loopIteration: iteration }),
  ]),
];

const executionOf = (events: ExecutionEvent[]): Execution => ({ ...fold(events), version: events.length });

describe('step list rows', () => {
  it('lists every step pending, with its badges data and an Execute, before any execution', () => {
    const rows = stepListRows(steps, null);
    expect(rows.map((row) => [row.step.order, row.status, row.run.label, row.results])).toEqual([
      [1, 'pending', 'Execute', []],
      [2, 'pending', 'Execute', []],
      [3, 'pending', 'Execute', []],
      [4, 'pending', 'Execute', []],
    ]);
    expect(rows.map((row) => row.inputFrom)).toEqual([[], [1], [], [1, 3]]);
  });

  it('gives multiple, choice and loop steps sub-rows of their results, never a single step', () => {
    const execution = executionOf([
      started,
      ...ranIdeas,
      ...ranPick,
      ...ranLoop(1, 'r3', 'loop-1'),
      ...ranLoop(2, 'r4', 'loop-2'),
    ]);
    const rows = stepListRows(steps, execution);
    expect(rows.map((row) => row.results)).toEqual([
      [
        { id: 'idea-a', label: 'Ngắn gọn', state: 'approved' },
        { id: 'idea-b', label: 'Branch 2', state: 'pending' },
      ],
      [{ id: 'picked', label: 'path: Ngắn', state: 'selected' }],
      [
        { id: 'loop-1', label: 'Loop 1', state: 'pending' },
        { id: 'loop-2', label: 'Loop 2', state: 'pending' },
      ],
      [],
    ]);
    // Completed below currentStep, running at it.
    expect(rows.map((row) => row.status)).toEqual(['completed', 'completed', 'completed', 'running']);
  });

  it("shows only the latest version's results after a re-run", () => {
    const rerun: ExecutionEvent[] = [
      stepRunStarted(ideas, 'r9', { cacheItemId: null }),
      stepRunSucceeded('r9', [draft('idea-c', 'C', { label: 'Branch 1' })]),
    ];
    const [row] = stepListRows(steps, executionOf([started, ...ranIdeas, ...rerun]));
    expect(row?.results).toEqual([{ id: 'idea-c', label: 'Branch 1', state: 'pending' }]);
  });

  it("runs a loop's next pending iteration, and offers a re-run once a step is done", () => {
    const rows = stepListRows(
      steps,
      executionOf([started, ...ranIdeas, ...ranPick, ...ranLoop(1, 'r3', 'loop-1')]),
    );
    expect(rows.map((row) => [row.run.label, row.run.rerun, row.run.loopIteration])).toEqual([
      ['Re-run', true, undefined],
      ['Re-run', true, undefined],
      ['Execute (lần 2)', false, 2],
      ['Execute', false, undefined],
    ]);
  });

  it('names a result without a label as the edit default, step_{order}', () => {
    const unlabelled: ExecutionEvent[] = [
      stepRunStarted(ideas, 'r1', { cacheItemId: 'c1' }),
      stepRunSucceeded('r1', [draft('idea-a', 'A', { label: '' })]),
    ];
    const [row] = stepListRows(steps, executionOf([started, ...unlabelled]));
    expect(row?.results.map((result) => result.label)).toEqual(['step_1']);
  });
});
