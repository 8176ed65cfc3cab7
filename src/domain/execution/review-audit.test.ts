import { describe, expect, it } from 'vitest';
import { reviewAudit } from './review-audit';
import { aStep, executionStarted, NOW, ranStep } from './testing';
import type { ExecutionEvent } from './types';

/** Given an execution's events, when the auditor reads its reviews, then each tells who saw what and when. */

const RUNNER = 'user-1';
const ANA = 'ana';
const BAO = 'bao';
const HOUR = 60 * 60 * 1000;
const hoursLater = (hours: number) => new Date(Date.parse(NOW) + hours * HOUR).toISOString();

const draftStep = aStep(1, { name: 'Draft' });
const ran: ExecutionEvent[] = [
  executionStarted([draftStep], ['c1']),
  ...ranStep(draftStep, 'run-1', 'c1', 'r1', 'First draft'),
];

const requested = (approvals = 2, reviewId = 'review-1'): ExecutionEvent => ({
  type: 'ReviewRequested',
  data: {
    reviewId,
    stepId: draftStep.id,
    runId: 'run-1',
    resultIds: ['r1'],
    by: 'members',
    userIds: [ANA, BAO],
    role: null,
    approvals,
    selfApproval: false,
    requestedBy: RUNNER,
    dueAt: null,
    onDue: null,
    note: 'Check the tone',
    at: NOW,
  },
});
const approved = (userId: string, at: string, comment: string | null = null): ExecutionEvent => ({
  type: 'ReviewApproved',
  data: { reviewId: 'review-1', userId, role: 'editor', comment, at },
});
const rejected = (userId: string, at: string, reason: string): ExecutionEvent => ({
  type: 'ReviewRejected',
  data: { reviewId: 'review-1', userId, role: 'reviewer', reason, at },
});
const edited = (after: string, at: string): ExecutionEvent => ({
  type: 'ResultEdited',
  data: { resultId: 'r1', before: 'First draft', after, label: 'Branch 1', at },
});

describe('the reviews an auditor reads', () => {
  it('tells who asked whom, when, and how many approvals were needed', () => {
    const [audit] = reviewAudit([...ran, requested()], hoursLater(3));
    expect(audit).toEqual({
      reviewId: 'review-1',
      stepId: draftStep.id,
      requestedBy: RUNNER,
      requestedAt: NOW,
      // The request is the fourth event, and nothing changed the review since.
      requestedPosition: 4,
      lastPosition: 4,
      asked: { by: 'members', userIds: [ANA, BAO], role: null, approvalsNeeded: 2 },
      dueAt: null,
      note: 'Check the tone',
      decisions: [],
      due: null,
      handedBack: [],
      ownersToo: false,
      status: 'pending',
      decidedAt: null,
      // Still pending: it has waited until now.
      waitedMs: 3 * HOUR,
    });
  });

  it('an edit before the decision is what the decider saw', () => {
    const events = [
      ...ran,
      requested(),
      approved(ANA, hoursLater(1), 'Fine'),
      edited('Second draft', hoursLater(2)),
      approved(BAO, hoursLater(4)),
    ];
    const [audit] = reviewAudit(events, hoursLater(9));
    expect(audit?.decisions).toEqual([
      {
        decision: 'approved',
        position: 5,
        userId: ANA,
        role: 'editor',
        comment: 'Fine',
        at: hoursLater(1),
        seen: [{ resultId: 'r1', label: 'Branch 1', result: 'First draft' }],
      },
      {
        decision: 'approved',
        position: 7,
        userId: BAO,
        role: 'editor',
        comment: null,
        at: hoursLater(4),
        seen: [{ resultId: 'r1', label: 'Branch 1', result: 'Second draft' }],
      },
    ]);
    // Waited from the request to the last approval needed, not to now.
    expect(audit).toMatchObject({ status: 'approved', decidedAt: hoursLater(4), waitedMs: 4 * HOUR });
    // The edit between the approvals did not change the review; the last approval did.
    expect(audit).toMatchObject({ requestedPosition: 4, lastPosition: 7 });
  });

  it('names events by the stream positions given: an unreadable one left out keeps its place', () => {
    const events = [...ran, requested(), approved(ANA, hoursLater(1), 'Fine')];
    // Position 4 was unreadable: the request is the fifth event of the stream, the approval the sixth.
    const [audit] = reviewAudit(events, hoursLater(9), [1, 2, 3, 5, 6]);
    expect(audit).toMatchObject({ requestedPosition: 5, lastPosition: 6 });
    expect(audit?.decisions.map((d) => d.position)).toEqual([6]);
  });

  it('a review withdrawn later was last changed by the withdrawal', () => {
    const events: ExecutionEvent[] = [
      ...ran,
      requested(),
      { type: 'ReviewWithdrawn', data: { reviewId: 'review-1', at: hoursLater(1) } },
    ];
    const [audit] = reviewAudit(events, hoursLater(2));
    expect(audit).toMatchObject({ status: 'withdrawn', requestedPosition: 4, lastPosition: 5 });
  });

  it('a rejection carries its reason and ends the wait', () => {
    const events = [...ran, requested(), rejected(BAO, hoursLater(2), 'Too long')];
    const [audit] = reviewAudit(events, hoursLater(9));
    expect(audit).toMatchObject({
      status: 'rejected',
      decidedAt: hoursLater(2),
      waitedMs: 2 * HOUR,
      decisions: [
        {
          decision: 'rejected',
          userId: BAO,
          role: 'reviewer',
          reason: 'Too long',
          seen: [{ resultId: 'r1', result: 'First draft' }],
        },
      ],
    });
  });

  it('records only the decisions that counted: a second approval by the same person, or one after the end, is none', () => {
    const events = [
      ...ran,
      requested(),
      approved(ANA, hoursLater(1)),
      approved(ANA, hoursLater(2)),
      rejected(BAO, hoursLater(3), 'No'),
      approved(BAO, hoursLater(4)),
    ];
    const [audit] = reviewAudit(events, hoursLater(9));
    expect(audit?.decisions.map((d) => [d.decision, d.userId])).toEqual([
      ['approved', ANA],
      ['rejected', BAO],
    ]);
  });

  it('a result deleted before the decision shows as deleted, and each review stands apart', () => {
    const deleted: ExecutionEvent = {
      type: 'ResultDeleted',
      data: { resultId: 'r1', content: 'First draft', at: hoursLater(1) },
    };
    const events = [...ran, requested(1), deleted, approved(ANA, hoursLater(2)), requested(1, 'review-2')];
    const audits = reviewAudit(events, hoursLater(5));
    expect(audits.map((a) => [a.reviewId, a.status, a.waitedMs])).toEqual([
      ['review-1', 'approved', 2 * HOUR],
      ['review-2', 'pending', 5 * HOUR],
    ]);
    expect(audits[0]?.decisions[0]?.seen).toEqual([{ resultId: 'r1', label: null, result: null }]);
  });

  it('a review withdrawn by a reset waited until then; a decision on an unknown review is passed over', () => {
    const events: ExecutionEvent[] = [
      ...ran,
      requested(1),
      { type: 'ReviewWithdrawn', data: { reviewId: 'review-1', at: hoursLater(1) } },
      { ...approved(ANA, hoursLater(2)), data: { ...approved(ANA, '').data, reviewId: 'nobody' } },
    ] as ExecutionEvent[];
    const [audit] = reviewAudit(events, hoursLater(2));
    expect(audit).toMatchObject({ status: 'withdrawn', decisions: [], waitedMs: 1 * HOUR });
  });

  it('a due time that escalated, and a named person who left: both told, the owners could decide', () => {
    const events: ExecutionEvent[] = [
      ...ran,
      requested(1),
      { type: 'ReviewHandedBack', data: { reviewId: 'review-1', userId: BAO, at: hoursLater(1) } },
      { type: 'ReviewDue', data: { reviewId: 'review-1', onDue: 'escalate', at: hoursLater(2) } },
    ];
    const [audit] = reviewAudit(events, hoursLater(3));
    expect(audit).toMatchObject({
      status: 'pending',
      due: { onDue: 'escalate', at: hoursLater(2) },
      handedBack: [{ userId: BAO, at: hoursLater(1) }],
      ownersToo: true,
    });
  });

  it('an execution with no review has none', () => {
    expect(reviewAudit(ran, NOW)).toEqual([]);
  });
});
