import { describe, expect, it } from 'vitest';
import editAndReset from '../execution/fixtures/edit-and-reset.json';
import outputModes from '../execution/fixtures/output-modes.json';
import {
  aStep,
  draft,
  EXECUTION_ID,
  executionStarted,
  fold,
  ranStep,
  reviewRequested,
  stepRunStarted,
  stepRunSucceeded,
} from '../execution/testing';
import type { ExecutionEvent } from '../execution/types';
import { DUE_TIME, reviewScores } from './review-scores';
import type { Score } from './scorer-definitions';
import { wordEditDistance } from './word-edit-distance';

const step1 = aStep(1);
const step2 = aStep(2);
const T0 = '2026-01-01T10:00:00.000Z';
const later = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();

const ran: ExecutionEvent[] = [
  executionStarted([step1, step2], ['c1', 'c2'], T0),
  ...ranStep(step1, 'run-1', 'c1', 'r1', 'Three ideas: matcha latte, sencha lemonade, cookies.', T0),
];

const edited = (resultId: string, before: string, after: string, by: string, at: string): ExecutionEvent => ({
  type: 'ResultEdited',
  data: { resultId, before, after, label: 'Branch 1', by, at },
});
const approvedBy = (reviewId: string, userId: string, at: string, comment: string | null = null) =>
  ({
    type: 'ReviewApproved',
    data: { reviewId, userId, role: 'reviewer', comment, at },
  }) satisfies ExecutionEvent;

/** The scores as name → value, for one step. */
const valuesOf = (scores: Score[], stepId = step1.id) =>
  Object.fromEntries(scores.filter((s) => s.stepId === stepId).map((s) => [s.name, s.value]));

describe('reviewScores', () => {
  it('scores an approved review: decision, edit, words changed, seconds from request to decision', () => {
    const state = fold([
      ...ran,
      reviewRequested('rev-1', ['r1'], { runId: 'run-1', at: later(10) }),
      edited(
        'r1',
        'Three ideas: matcha latte, sencha lemonade, cookies.',
        'Three ideas: matcha latte, yuzu sencha lemonade, genmaicha cookies.',
        'user-2',
        later(40),
      ),
      approvedBy('rev-1', 'user-2', later(100), 'Tốt'),
    ]);
    const scores = reviewScores(state);
    expect(scores).toEqual([
      {
        target: 'step',
        executionId: EXECUTION_ID,
        stepId: step1.id,
        name: 'approved',
        kind: 'boolean',
        value: true,
        source: 'review',
        by: 'user-2',
        comment: 'Tốt',
      },
      expect.objectContaining({ name: 'edited', value: true, by: 'user-2' }),
      expect.objectContaining({ name: 'edit_distance', kind: 'number', value: 2, by: 'user-2' }),
      expect.objectContaining({ name: 'time_to_decide_seconds', kind: 'number', value: 90, by: 'user-2' }),
    ]);
  });

  it('scores a rejection as not approved, its reason the comment; an unedited result as 0 words', () => {
    const state = fold([
      ...ran,
      reviewRequested('rev-1', ['r1'], { runId: 'run-1', at: T0 }),
      {
        type: 'ReviewRejected',
        data: { reviewId: 'rev-1', userId: 'user-3', role: 'reviewer', reason: 'Quá ngắn', at: later(5) },
      },
    ]);
    expect(reviewScores(state)).toEqual([
      expect.objectContaining({ name: 'approved', value: false, by: 'user-3', comment: 'Quá ngắn' }),
      expect.objectContaining({ name: 'edited', value: false }),
      expect.objectContaining({ name: 'edit_distance', value: 0 }),
      expect.objectContaining({ name: 'time_to_decide_seconds', value: 5 }),
    ]);
  });

  it('scores an expired review as not approved, decided by its due time', () => {
    const state = fold([
      ...ran,
      reviewRequested('rev-1', ['r1'], { runId: 'run-1', at: T0, onDue: 'fail', dueAt: later(60) }),
      { type: 'ReviewDue', data: { reviewId: 'rev-1', onDue: 'fail', at: later(60) } },
    ]);
    expect(valuesOf(reviewScores(state))).toEqual({
      approved: false,
      edited: false,
      edit_distance: 0,
      time_to_decide_seconds: 60,
    });
    expect(reviewScores(state)[0]).toMatchObject({ by: DUE_TIME });
  });

  it('takes the last decided review of a step: rejected, run again, approved', () => {
    const state = fold([
      ...ran,
      reviewRequested('rev-1', ['r1'], { runId: 'run-1', at: T0 }),
      {
        type: 'ReviewRejected',
        data: { reviewId: 'rev-1', userId: 'user-3', role: 'reviewer', reason: 'Lại', at: later(5) },
      },
      stepRunStarted(step1, 'run-2', { cacheItemId: 'c1' }, later(6)),
      stepRunSucceeded('run-2', [draft('r2', 'Better ideas.')], later(7)),
      reviewRequested('rev-2', ['r2'], { runId: 'run-2', at: later(7) }),
      approvedBy('rev-2', 'user-3', later(27)),
    ]);
    expect(valuesOf(reviewScores(state))).toEqual({
      approved: true,
      edited: false,
      edit_distance: 0,
      time_to_decide_seconds: 20,
    });
  });

  it('gives nothing for a step nobody decided or edited, nor for a pending or withdrawn review', () => {
    expect(reviewScores(fold(ran))).toEqual([]);
    expect(reviewScores(fold([...ran, reviewRequested('rev-1', ['r1'], { runId: 'run-1' })]))).toEqual([]);
    expect(
      reviewScores(
        fold([
          ...ran,
          reviewRequested('rev-1', ['r1'], { runId: 'run-1' }),
          { type: 'ReviewWithdrawn', data: { reviewId: 'rev-1', at: later(1) } },
        ]),
      ),
    ).toEqual([]);
  });

  it('reads a real run: the runner edited and approved a result, no review asked', () => {
    const events = editAndReset as unknown as ExecutionEvent[];
    const edit = events.find((e) => e.type === 'ResultEdited')!;
    if (edit.type !== 'ResultEdited') throw new Error('no edit');
    const state = fold(events);
    const scores = reviewScores(state);
    expect(valuesOf(scores, state.results[0]!.stepId)).toEqual({
      approved: true,
      edited: true,
      edit_distance: wordEditDistance(edit.data.before, edit.data.after),
    });
    expect(wordEditDistance(edit.data.before, edit.data.after)).toBeGreaterThan(5);
    // Its second step was run but neither approved nor edited.
    expect(scores.every((s) => s.stepId === state.results[0]!.stepId)).toBe(true);
  });

  it('reads a real run with approvals and an unapproval: approved results only', () => {
    const state = fold(outputModes as unknown as ExecutionEvent[]);
    const scores = reviewScores(state);
    for (const s of scores.filter((each) => each.name === 'approved')) {
      const approved = state.results.filter(
        (r) => r.stepId === s.stepId && r.approved && r.choiceIndex === null,
      );
      expect(approved.length).toBeGreaterThan(0);
      expect(s).toMatchObject({ value: true, by: state.userId, source: 'review' });
    }
  });
});
