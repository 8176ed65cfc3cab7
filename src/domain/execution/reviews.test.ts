import { describe, expect, it } from 'vitest';
import { stepReviewSchema } from '../step-review';
import { given } from '../testing';
import { MESSAGES } from './decide';
import { decider } from './decider';
import { REVIEW_MESSAGES } from './reviews';
import {
  aStep,
  contextWith,
  draft,
  executionStarted,
  fold,
  NOW,
  reviewRequested,
  sha256,
  startStepRun,
  stepRunStarted,
  stepRunSucceeded,
} from './testing';
import type { DecideContext, ExecutionEvent, ExecutionState } from './types';

/** Given/when/then: a step's review by another person than the runner. */

const RUNNER = 'user-1';
const ANA = 'ana';
const BAO = 'bao';
const LATER = '2025-01-02T05:04:05.000Z';

const reviewed = aStep(1, {
  name: 'Draft',
  review: {
    by: 'role',
    role: 'reviewer',
    approvals: 2,
    selfApproval: false,
    dueInHours: 24,
    onDue: 'remind',
  },
});
const next = aStep(2, { name: 'Publish' });
const inWorkspace = (steps = [reviewed, next]): ExecutionEvent => {
  const started = executionStarted(steps, ['c1', 'c2']);
  return started.type === 'ExecutionStarted'
    ? { ...started, data: { ...started.data, workspaceId: 'workspace-1' } }
    : started;
};

const asUser =
  (userId: string, role: DecideContext['role'], now = LATER) =>
  (state: ExecutionState) =>
    contextWith({ steps: state.steps, userId, role, now });

/** The run of the reviewed step, and its review as the decider asks for it. */
const ran: ExecutionEvent[] = [
  stepRunStarted(reviewed, 'run-1', { cacheItemId: 'c1' }),
  stepRunSucceeded('run-1', [draft('r1', 'First draft')]),
];
const requested: ExecutionEvent = {
  type: 'ReviewRequested',
  data: {
    reviewId: 'review-1',
    stepId: reviewed.id,
    runId: 'run-1',
    resultIds: ['r1'],
    by: 'role',
    userIds: [],
    role: 'reviewer',
    approvals: 2,
    selfApproval: false,
    requestedBy: RUNNER,
    dueAt: '2025-01-03T03:04:05.000Z',
    onDue: 'remind',
    note: null,
    at: NOW,
  },
};
const waiting = [inWorkspace(), ...ran.slice(0, 1)];
const history = [inWorkspace(), ...ran, requested];
/** What a reviewer of review-1 approves: r1's text, with its hash. */
const approvedTexts = [{ resultId: 'r1', sha256: sha256('First draft') }];
const approvedBy = (userId: string): ExecutionEvent => ({
  type: 'ReviewApproved',
  data: { reviewId: 'review-1', userId, role: 'reviewer', comment: null, texts: approvedTexts, at: LATER },
});

describe('a step reviewed by another person', () => {
  it('asks for review when the step produces its results; the execution waits and is not completed', () => {
    const single = aStep(1, { name: 'Draft', review: reviewed.review! });
    const started = inWorkspace([single]);
    const { events, state } = given(
      decider,
      [started, stepRunStarted(single, 'run-1', { cacheItemId: 'c1' })],
      (s: ExecutionState) => contextWith({ steps: s.steps, userId: RUNNER, newId: () => 'x' }),
    )
      .when({
        type: 'CompleteStepRun',
        data: { runId: 'run-1', output: 'A draft', usage: null, durationMs: 3 },
      })
      .thenEmits([
        {
          type: 'StepRunSucceeded',
          data: {
            runId: 'run-1',
            results: [draft('x', 'A draft')],
            usage: null,
            durationMs: 3,
            at: NOW,
          },
        },
        { ...requested, data: { ...requested.data, reviewId: 'x', resultIds: ['x'] } },
      ]);
    expect(events.map((e) => e.type)).not.toContain('ExecutionCompleted');
    expect(state.status).toBe('running');
    expect(state.reviews).toMatchObject([
      { id: 'x', status: 'pending', approvalsNeeded: 2, approvalsGiven: [] },
    ]);
    void waiting;
  });

  it("four eyes: the runner's own approval of a result waiting for review is refused", () => {
    given(decider, history, asUser(RUNNER, 'editor'))
      .when({ type: 'ApproveResult', data: { resultId: 'r1' } })
      .thenThrows('forbidden', /đang chờ review của một thành viên có vai trò reviewer/);
  });

  it('four eyes: the runner cannot approve through the review when self-approval is off', () => {
    given(decider, history, asUser(RUNNER, 'reviewer'))
      .when({ type: 'ApproveReview', data: { reviewId: 'review-1' } })
      .thenThrows('forbidden', REVIEW_MESSAGES.ownStep);
  });

  it('M of N: one approval of two leaves the review pending and the results unapproved', () => {
    const { state } = given(decider, history, asUser(ANA, 'reviewer'))
      .when({ type: 'ApproveReview', data: { reviewId: 'review-1', comment: 'Good' } })
      .thenEmits([
        {
          type: 'ReviewApproved',
          data: {
            reviewId: 'review-1',
            userId: ANA,
            role: 'reviewer',
            comment: 'Good',
            texts: approvedTexts,
            at: LATER,
          },
        },
      ]);
    expect(state.reviews[0]).toMatchObject({ status: 'pending', approvalsGiven: [{ userId: ANA }] });
    expect(state.results[0]!.approved).toBe(false);
  });

  it('M of N: the same person approving twice counts once', () => {
    given(decider, [...history, approvedBy(ANA)], asUser(ANA, 'reviewer'))
      .when({ type: 'ApproveReview', data: { reviewId: 'review-1' } })
      .thenEmits([]);
    expect(fold([...history, approvedBy(ANA), approvedBy(ANA)]).reviews[0]!.approvalsGiven).toHaveLength(1);
  });

  it('M of N: the second distinct approval approves the review and its results', () => {
    const { state } = given(decider, [...history, approvedBy(ANA)], asUser(BAO, 'reviewer'))
      .when({ type: 'ApproveReview', data: { reviewId: 'review-1' } })
      .thenEmits([
        {
          type: 'ReviewApproved',
          data: {
            reviewId: 'review-1',
            userId: BAO,
            role: 'reviewer',
            comment: null,
            texts: approvedTexts,
            at: LATER,
          },
        },
        { type: 'ResultApproved', data: { resultId: 'r1', at: LATER } },
      ]);
    expect(state.reviews[0]).toMatchObject({ status: 'approved', decidedAt: LATER });
    expect(state.results[0]!.approved).toBe(true);
  });

  it('the last approval of the last step completes the execution', () => {
    const single = aStep(1, { review: reviewed.review! });
    const only = [
      inWorkspace([single]),
      stepRunStarted(single, 'run-1', { cacheItemId: 'c1' }),
      ...ran.slice(1),
      requested,
    ];
    const events = given(decider, [...only, approvedBy(ANA)], asUser(BAO, 'reviewer'))
      .when({ type: 'ApproveReview', data: { reviewId: 'review-1' } })
      .events();
    expect(events.map((e) => e.type)).toEqual(['ReviewApproved', 'ResultApproved', 'ExecutionCompleted']);
  });

  it('reject with a reason: the step goes back to the runner, its results unapproved, and it can run again', () => {
    const { state } = given(decider, history, asUser(ANA, 'reviewer'))
      .when({ type: 'RejectReview', data: { reviewId: 'review-1', reason: 'Too long' } })
      .thenEmits([
        {
          type: 'ReviewRejected',
          data: { reviewId: 'review-1', userId: ANA, role: 'reviewer', reason: 'Too long', at: LATER },
        },
      ]);
    expect(state.reviews[0]).toMatchObject({
      status: 'rejected',
      rejection: { reason: 'Too long', userId: ANA },
    });
    expect(state.results[0]!.approved).toBe(false);
    expect(state.executionCache.find((item) => item.id === 'c1')!.status).toBe('pending');
    expect(state.currentStep).toBe(1);
    const again = given(
      decider,
      [
        ...history,
        ...[
          {
            type: 'ReviewRejected',
            data: { reviewId: 'review-1', userId: ANA, role: 'reviewer', reason: 'Too long', at: LATER },
          } as ExecutionEvent,
        ],
      ],
      asUser(RUNNER, 'editor'),
    )
      .when(startStepRun('run-2', reviewed.id))
      .events();
    expect(again).toMatchObject([{ type: 'StepRunStarted', data: { runId: 'run-2', cacheItemId: 'c1' } }]);
  });

  it('a rejection needs a reason', () => {
    given(decider, history, asUser(ANA, 'reviewer'))
      .when({ type: 'RejectReview', data: { reviewId: 'review-1', reason: '  ' } })
      .thenThrows('rule_violated', REVIEW_MESSAGES.reasonRequired);
  });

  it('a decision by someone the rule does not name is refused', () => {
    given(decider, history, asUser(BAO, 'editor'))
      .when({ type: 'ApproveReview', data: { reviewId: 'review-1' } })
      .thenThrows('forbidden', /vai trò reviewer/);
    const named = [
      inWorkspace(),
      ...ran,
      {
        ...requested,
        data: { ...requested.data, by: 'members', userIds: [ANA], role: null, approvals: 1 },
      } as ExecutionEvent,
    ];
    given(decider, named, asUser(BAO, 'reviewer'))
      .when({ type: 'RejectReview', data: { reviewId: 'review-1', reason: 'No' } })
      .thenThrows('forbidden', REVIEW_MESSAGES.notNamed);
    given(decider, named, asUser(ANA, 'reviewer'))
      .when({ type: 'ApproveReview', data: { reviewId: 'review-1' } })
      .thenEmits([
        {
          type: 'ReviewApproved',
          data: {
            reviewId: 'review-1',
            userId: ANA,
            role: 'reviewer',
            comment: null,
            texts: approvedTexts,
            at: LATER,
          },
        },
        { type: 'ResultApproved', data: { resultId: 'r1', at: LATER } },
      ]);
  });

  it('a decided review is a conflict', () => {
    const rejected: ExecutionEvent = {
      type: 'ReviewRejected',
      data: { reviewId: 'review-1', userId: ANA, role: 'reviewer', reason: 'No', at: LATER },
    };
    given(decider, [...history, rejected], asUser(BAO, 'reviewer'))
      .when({ type: 'ApproveReview', data: { reviewId: 'review-1' } })
      .thenThrows('conflict', REVIEW_MESSAGES.decided);
  });

  it('the steps after a step waiting for review cannot run until it is decided', () => {
    given(decider, history, asUser(RUNNER, 'editor'))
      .when(startStepRun('run-2', next.id))
      .thenThrows('conflict', /đang chờ review/);
  });

  it('runner default unchanged: a step without a rule, or reviewed by its runner, asks nobody', () => {
    for (const step of [aStep(1), aStep(1, { review: { by: 'runner', approvals: 1, selfApproval: true } })]) {
      const events = given(
        decider,
        [inWorkspace([step]), stepRunStarted(step, 'run-1', { cacheItemId: 'c1' })],
        (s: ExecutionState) => contextWith({ steps: s.steps }),
      )
        .when({
          type: 'CompleteStepRun',
          data: { runId: 'run-1', output: 'Text', usage: null, durationMs: 1 },
        })
        .events();
      expect(events.map((e) => e.type)).toEqual(['StepRunSucceeded', 'ExecutionCompleted']);
      const after = fold(
        events,
        fold([inWorkspace([step]), stepRunStarted(step, 'run-1', { cacheItemId: 'c1' })]),
      );
      given(
        decider,
        [inWorkspace([step]), stepRunStarted(step, 'run-1', { cacheItemId: 'c1' }), ...events],
        contextWith(),
      )
        .when({ type: 'ApproveResult', data: { resultId: after.results[0]!.id } })
        .thenEmits([{ type: 'ResultApproved', data: { resultId: after.results[0]!.id, at: NOW } }]);
    }
  });

  it('the runner asks for review of their latest results; not on an execution outside a workspace', () => {
    const plain = aStep(1);
    const base = [
      inWorkspace([plain]),
      stepRunStarted(plain, 'run-1', { cacheItemId: 'c1' }),
      stepRunSucceeded('run-1', [draft('r1', 'Text')]),
    ];
    const { state } = given(decider, base, asUser(RUNNER, 'editor', NOW))
      .when({
        type: 'RequestReview',
        data: { reviewId: 'rv', stepId: plain.id, userIds: [ANA, BAO], approvals: 2, note: 'Check it' },
      })
      .thenEmits([
        {
          type: 'ReviewRequested',
          data: {
            reviewId: 'rv',
            stepId: plain.id,
            runId: 'run-1',
            resultIds: ['r1'],
            by: 'members',
            userIds: [ANA, BAO],
            role: null,
            approvals: 2,
            selfApproval: false,
            requestedBy: RUNNER,
            dueAt: null,
            onDue: null,
            note: 'Check it',
            at: NOW,
          },
        },
      ]);
    expect(state.reviews[0]!.status).toBe('pending');
    given(decider, base, asUser(RUNNER, 'editor', NOW))
      .when({
        type: 'RequestReview',
        data: { reviewId: 'rv', stepId: plain.id, userIds: [ANA], approvals: 2 },
      })
      .thenThrows('rule_violated', REVIEW_MESSAGES.tooManyApprovals);
    given(decider, base, asUser(RUNNER, 'editor', NOW))
      .when({
        type: 'RequestReview',
        data: { reviewId: 'rv', stepId: plain.id, dueAt: '2020-01-01T00:00:00Z' },
      })
      .thenThrows('rule_violated', REVIEW_MESSAGES.dueInPast);
    given(decider, base, asUser(RUNNER, 'editor', NOW))
      .when({
        type: 'RequestReview',
        data: { reviewId: 'rv', stepId: plain.id, dueAt: '2030-01-01T00:00:00Z' },
      })
      .thenThrows('rule_violated', REVIEW_MESSAGES.dueTooFar);
    const personal = [executionStarted([plain], ['c1']), ...base.slice(1)];
    given(decider, personal, asUser(RUNNER, null, NOW))
      .when({ type: 'RequestReview', data: { reviewId: 'rv', stepId: plain.id, role: 'reviewer' } })
      .thenThrows('rule_violated', REVIEW_MESSAGES.notInWorkspace);
  });

  it('the runner may ask only members who may review, and a role with enough other holders', () => {
    const plain = aStep(1);
    const base = [
      inWorkspace([plain]),
      stepRunStarted(plain, 'run-1', { cacheItemId: 'c1' }),
      stepRunSucceeded('run-1', [draft('r1', 'Text')]),
    ];
    const members = [
      { userId: RUNNER, role: 'reviewer' as const },
      { userId: ANA, role: 'reviewer' as const },
      { userId: 'audrey', role: 'auditor' as const },
    ];
    const asking = (data: Record<string, unknown>) =>
      given(decider, base, (state) => ({ ...asUser(RUNNER, 'reviewer', NOW)(state), members })).when({
        type: 'RequestReview',
        data: { reviewId: 'rv', stepId: plain.id, ...data },
      });
    asking({ userIds: ['audrey'] }).thenThrows('rule_violated', REVIEW_MESSAGES.notAReviewer);
    asking({ userIds: ['stranger'] }).thenThrows('rule_violated', REVIEW_MESSAGES.notAReviewer);
    asking({ userIds: [RUNNER] }).thenThrows('rule_violated', REVIEW_MESSAGES.ownStep);
    // Two reviewers, but one of them is the runner: one approval at most.
    asking({ role: 'reviewer', approvals: 2 }).thenThrows(
      'rule_violated',
      REVIEW_MESSAGES.tooFewOfRole('reviewer', 1),
    );
    asking({ role: 'editor' }).thenThrows('rule_violated', REVIEW_MESSAGES.tooFewOfRole('editor', 0));
    expect(asking({ role: 'reviewer' }).events()).toHaveLength(1);
    expect(asking({ userIds: [ANA] }).events()).toHaveLength(1);
  });
});

const AFTER_DUE = '2025-01-03T03:05:00.000Z';
const dueWith = (onDue: 'remind' | 'escalate' | 'fail'): ExecutionEvent[] => [
  inWorkspace(),
  ...ran,
  { ...requested, data: { ...requested.data, onDue } } as ExecutionEvent,
];
const fired = (onDue: 'remind' | 'escalate' | 'fail'): ExecutionEvent => ({
  type: 'ReviewDue',
  data: { reviewId: 'review-1', onDue, at: AFTER_DUE },
});
const dueReview = { type: 'DueReview', data: { reviewId: 'review-1' } } as const;
const system = (now: string) => asUser('system', null, now);

describe("a review's due time", () => {
  it('remind: fires once at its time, the review still waits for the same people', () => {
    const { state } = given(decider, dueWith('remind'), system(AFTER_DUE))
      .when(dueReview)
      .thenEmits([fired('remind')]);
    expect(state.reviews[0]).toMatchObject({ status: 'pending', due: { onDue: 'remind' }, ownersToo: false });
    given(decider, [...dueWith('remind'), fired('remind')], system(AFTER_DUE))
      .when(dueReview)
      .thenEmits([]);
  });

  it('a review due without onDue reminds', () => {
    const noOnDue = { ...requested, data: { ...requested.data, onDue: null } } as ExecutionEvent;
    given(decider, [inWorkspace(), ...ran, noOnDue], system(AFTER_DUE))
      .when(dueReview)
      .thenEmits([fired('remind')]);
  });

  it('a timer early by this clock is refused, to be tried again; a decided review does not fire', () => {
    given(decider, dueWith('fail'), system(LATER))
      .when(dueReview)
      .thenThrows('conflict', REVIEW_MESSAGES.notDueYet);
    const rejected: ExecutionEvent = {
      type: 'ReviewRejected',
      data: { reviewId: 'review-1', userId: ANA, role: 'reviewer', reason: 'No', at: LATER },
    };
    given(decider, [...dueWith('fail'), rejected], system(AFTER_DUE))
      .when(dueReview)
      .thenEmits([]);
  });

  it("escalate: the workspace's owners may decide it too; other members still may not", () => {
    const escalated = [...dueWith('escalate'), fired('escalate')];
    expect(fold(escalated).reviews[0]).toMatchObject({ status: 'pending', ownersToo: true });
    given(decider, escalated, asUser('olga', 'owner'))
      .when({ type: 'ApproveReview', data: { reviewId: 'review-1' } })
      .thenEmits([
        {
          type: 'ReviewApproved',
          data: {
            reviewId: 'review-1',
            userId: 'olga',
            role: 'owner',
            comment: null,
            texts: approvedTexts,
            at: LATER,
          },
        },
      ]);
    given(decider, dueWith('escalate'), asUser('olga', 'owner'))
      .when({ type: 'ApproveReview', data: { reviewId: 'review-1' } })
      .thenThrows('forbidden', REVIEW_MESSAGES.notOfRole('reviewer'));
    given(decider, escalated, asUser('eve', 'editor'))
      .when({ type: 'ApproveReview', data: { reviewId: 'review-1' } })
      .thenThrows('forbidden', REVIEW_MESSAGES.notOfRole('reviewer'));
  });

  it('fail: the review expires and the step goes back to the runner, who can run it again', () => {
    const { state } = given(decider, dueWith('fail'), system(AFTER_DUE))
      .when(dueReview)
      .thenEmits([fired('fail')]);
    expect(state.reviews[0]).toMatchObject({ status: 'expired', decidedAt: AFTER_DUE });
    expect(state.results[0]!.approved).toBe(false);
    expect(state.executionCache.find((item) => item.id === 'c1')!.status).toBe('pending');
    given(decider, [...dueWith('fail'), fired('fail')], asUser(ANA, 'reviewer'))
      .when({ type: 'ApproveReview', data: { reviewId: 'review-1' } })
      .thenThrows('conflict', REVIEW_MESSAGES.decided);
    // Its result is still the review's: a tick is refused, saying the review expired (nobody rejected it).
    given(decider, [...dueWith('fail'), fired('fail')], asUser('olga', 'owner'))
      .when({ type: 'ApproveResult', data: { resultId: state.results[0]!.id } })
      .thenThrows('forbidden', MESSAGES.expiredReview);
  });
});

describe('a review when its people or its execution change', () => {
  const named: ExecutionEvent = {
    ...requested,
    data: { ...requested.data, by: 'members', role: null, userIds: [ANA, BAO], approvals: 1 },
  } as ExecutionEvent;

  it('a named person removed from the workspace: the review goes to the owners, without them', () => {
    const { state } = given(decider, [inWorkspace(), ...ran, named], system(LATER))
      .when({ type: 'HandBackReviews', data: { userId: ANA } })
      .thenEmits([{ type: 'ReviewHandedBack', data: { reviewId: 'review-1', userId: ANA, at: LATER } }]);
    expect(state.reviews[0]).toMatchObject({ userIds: [BAO], ownersToo: true, status: 'pending' });
    const handedBack: ExecutionEvent = {
      type: 'ReviewHandedBack',
      data: { reviewId: 'review-1', userId: ANA, at: LATER },
    };
    given(decider, [inWorkspace(), ...ran, named, handedBack], asUser(ANA, null))
      .when({ type: 'ApproveReview', data: { reviewId: 'review-1' } })
      .thenThrows('forbidden', REVIEW_MESSAGES.notNamed);
    given(decider, [inWorkspace(), ...ran, named, handedBack], asUser('olga', 'owner'))
      .when({ type: 'ApproveReview', data: { reviewId: 'review-1' } })
      .events();
  });

  it('too few left to decide it: it goes to the owners, and one owner settles it, even one who approved before', () => {
    const members = [
      { userId: ANA, role: 'reviewer' as const },
      { userId: 'olga', role: 'owner' as const },
      { userId: RUNNER, role: 'editor' as const },
    ];
    const sentToOwners: ExecutionEvent = {
      type: 'ReviewSentToOwners',
      data: { reviewId: 'review-1', reason: 'too-few-deciders', at: LATER },
    };
    // Escalated at its due time, the owner's approval is one of the two it needs.
    const escalated = [...dueWith('escalate'), fired('escalate')];
    const ownerApproved: ExecutionEvent = {
      type: 'ReviewApproved',
      data: {
        reviewId: 'review-1',
        userId: 'olga',
        role: 'owner',
        comment: null,
        texts: approvedTexts,
        at: LATER,
      },
    };
    expect(fold([...escalated, ownerApproved]).reviews[0]).toMatchObject({ status: 'pending' });
    // Ana is the one reviewer left; she becomes an auditor: nobody may give the second approval.
    const withoutAna = members.map((m) => (m.userId === ANA ? { ...m, role: 'auditor' as const } : m));
    given(decider, [...escalated, ownerApproved], (s: ExecutionState) => ({
      ...asUser('system', null)(s),
      members: withoutAna,
    }))
      .when({ type: 'CheckReviewDeciders', data: {} })
      .thenEmits([sentToOwners]);
    const { state } = given(decider, [...escalated, ownerApproved, sentToOwners], asUser('olga', 'owner'))
      .when({ type: 'ApproveReview', data: { reviewId: 'review-1' } })
      .thenEmits([ownerApproved, { type: 'ResultApproved', data: { resultId: 'r1', at: LATER } }]);
    expect(state.reviews[0]).toMatchObject({ status: 'approved', approvalsGiven: [{ userId: 'olga' }] });
    // Sent to the owners first, one owner's approval settles it at once; a reviewer's still counts as one.
    given(decider, [...history, sentToOwners], asUser('olga', 'owner'))
      .when({ type: 'ApproveReview', data: { reviewId: 'review-1' } })
      .thenEmits([ownerApproved, { type: 'ResultApproved', data: { resultId: 'r1', at: LATER } }]);
    given(decider, [...history, sentToOwners], asUser(ANA, 'reviewer'))
      .when({ type: 'ApproveReview', data: { reviewId: 'review-1' } })
      .thenEmits([approvedBy(ANA)]);
    // Sent once: the check finds nothing more to do.
    given(decider, [...history, sentToOwners], (s: ExecutionState) => ({
      ...asUser('system', null)(s),
      members: [],
    }))
      .when({ type: 'CheckReviewDeciders', data: {} })
      .thenEmits([]);
  });

  it('someone the review does not name leaving changes nothing; nor does a role rule', () => {
    given(decider, [inWorkspace(), ...ran, named], system(LATER))
      .when({ type: 'HandBackReviews', data: { userId: 'carl' } })
      .thenEmits([]);
    given(decider, history, system(LATER))
      .when({ type: 'HandBackReviews', data: { userId: ANA } })
      .thenEmits([]);
  });

  it('a reset withdraws the review still waiting, and the step can run again', () => {
    const events = given(decider, history, asUser(RUNNER, 'editor'))
      .when({ type: 'ResetExecution', data: {} })
      .events();
    expect(events.map((e) => e.type)).toEqual(['ReviewWithdrawn', 'ExecutionReset']);
    const after = fold([...history, ...events]);
    expect(after.reviews[0]).toMatchObject({ status: 'withdrawn', decidedAt: LATER });
    given(decider, [...history, ...events], asUser(RUNNER, 'editor'))
      .when(startStepRun('run-2', reviewed.id))
      .events();
    // Its reviewer, deciding it now, is told it was withdrawn rather than decided.
    given(decider, [...history, ...events], asUser(ANA, 'reviewer'))
      .when({ type: 'ApproveReview', data: { reviewId: after.reviews[0]!.id } })
      .thenThrows('conflict', /^Review này đã được rút lại/);
  });
});

describe("a reviewer's decision binds the runner's request for review", () => {
  const plain = aStep(1, { name: 'Notes' });
  const members = [
    { userId: RUNNER, role: 'editor' as const },
    { userId: ANA, role: 'reviewer' as const },
    { userId: BAO, role: 'reviewer' as const },
    { userId: 'ed', role: 'editor' as const },
  ];
  const asRunner = (state: ExecutionState) =>
    contextWith({ steps: state.steps, userId: RUNNER, role: 'editor', members, now: LATER });
  const rejectedBy = (reviewId: string): ExecutionEvent => ({
    type: 'ReviewRejected',
    data: { reviewId, userId: ANA, role: 'reviewer', reason: 'Wrong', at: LATER },
  });

  it('a rejected text is not asked again of someone else: only an edit (or a new run) asks again', () => {
    const askedAna = [
      inWorkspace([plain]),
      stepRunStarted(plain, 'run-1', { cacheItemId: 'c1' }),
      stepRunSucceeded('run-1', [draft('r1', 'Text')]),
      {
        ...requested,
        data: {
          ...requested.data,
          stepId: plain.id,
          by: 'members',
          userIds: [ANA],
          role: null,
          approvals: 1,
          dueAt: null,
          onDue: null,
        },
      } as ExecutionEvent,
      rejectedBy('review-1'),
    ];
    given(decider, askedAna, asRunner)
      .when({ type: 'RequestReview', data: { reviewId: 'rv-2', stepId: plain.id, userIds: [BAO] } })
      .thenThrows('rule_violated', REVIEW_MESSAGES.rejectedAsItIs);
    // Edited, the text is asked again of the reviewer who rejected it.
    const events = given(decider, askedAna, asRunner)
      .when({ type: 'EditResult', data: { resultId: 'r1', result: 'Better text' } })
      .events();
    expect(events.at(-1)).toMatchObject({
      type: 'ReviewRequested',
      data: { resultIds: ['r1'], userIds: [ANA], asksAgain: { reviewId: 'review-1', because: 'edited' } },
    });
  });

  it("a step whose rule asks another person is asked again of the rule's people only", () => {
    // The rule's review withdrawn by a reset: the runner asks again, but not of whom they choose.
    const reset: ExecutionEvent[] = [
      { type: 'ReviewWithdrawn', data: { reviewId: 'review-1', at: LATER } },
      { type: 'ExecutionReset', data: { cacheItemIds: ['c3', 'c4'], at: LATER } },
    ];
    const withdrawn = [...history, ...reset];
    for (const asked of [
      { userIds: [BAO] },
      { role: 'editor' as const },
      { role: 'reviewer' as const, approvals: 1 },
    ])
      given(decider, withdrawn, asRunner)
        .when({ type: 'RequestReview', data: { reviewId: 'rv-2', stepId: reviewed.id, ...asked } })
        .thenThrows('rule_violated', REVIEW_MESSAGES.asksAsRule);
    given(decider, withdrawn, asRunner)
      .when({ type: 'RequestReview', data: { reviewId: 'rv-2', stepId: reviewed.id } })
      .thenEmits([
        reviewRequested('rv-2', ['r1'], {
          stepId: reviewed.id,
          runId: 'run-1',
          approvals: 2,
          requestedBy: RUNNER,
          at: LATER,
        }),
      ]);
    // The rule's people restated, the runner among them left out (as the run screen's form sends them), is the rule.
    const named = aStep(1, {
      name: 'Draft',
      review: { by: 'members', userIds: [RUNNER, ANA, BAO], approvals: 2, selfApproval: false },
    });
    const namedRan = [
      inWorkspace([named, next]),
      stepRunStarted(named, 'run-1', { cacheItemId: 'c1' }),
      stepRunSucceeded('run-1', [draft('r1', 'First draft')]),
    ];
    expect(
      given(decider, namedRan, asRunner)
        .when({
          type: 'RequestReview',
          data: { reviewId: 'rv-2', stepId: named.id, userIds: [ANA, BAO], approvals: 2 },
        })
        .events(),
    ).toMatchObject([
      { type: 'ReviewRequested', data: { by: 'members', userIds: [RUNNER, ANA, BAO], approvals: 2 } },
    ]);
    given(decider, namedRan, asRunner)
      .when({
        type: 'RequestReview',
        data: { reviewId: 'rv-2', stepId: named.id, userIds: [ANA], approvals: 2 },
      })
      .thenThrows('rule_violated', REVIEW_MESSAGES.asksAsRule);
    // Once the rule's review rejected it, the same text is not asked of anyone again.
    given(decider, [...history, rejectedBy('review-1')], asRunner)
      .when({ type: 'RequestReview', data: { reviewId: 'rv-2', stepId: reviewed.id } })
      .thenThrows('rule_violated', REVIEW_MESSAGES.rejectedAsItIs);
  });
});

describe('a reviewed copy a rerun reused, edited by a reviewer', () => {
  it('is asked again for its runner: the runner, an owner, cannot decide it even once it goes to the owners', () => {
    const reusedHistory: ExecutionEvent[] = [
      inWorkspace(),
      {
        type: 'ResultsReused',
        data: {
          sourceExecutionId: 'execution-0',
          sourceStartedAt: NOW,
          fromStepId: next.id,
          stepIds: [reviewed.id],
          results: [
            {
              resultId: 'r1',
              sourceResultId: 'source-r1',
              sourceRunId: 'source-run-1',
              stepId: reviewed.id,
              stepOrder: 1,
              label: 'Branch 1',
              branchName: null,
              branchPath: null,
              choiceIndex: null,
              loopIteration: null,
              content: 'Approved draft',
            },
          ],
          at: NOW,
        },
      },
    ];
    const edit = given(decider, reusedHistory, (state: ExecutionState) =>
      contextWith({ steps: state.steps, userId: ANA, role: 'reviewer', now: LATER, newId: () => 'rv-1' }),
    )
      .when({ type: 'EditResult', data: { resultId: 'r1', result: 'Edited by a reviewer' } })
      .events();
    expect(edit.at(-1)).toMatchObject({
      type: 'ReviewRequested',
      data: { reviewId: 'rv-1', resultIds: ['r1'], requestedBy: RUNNER },
    });
    const sentToOwners: ExecutionEvent = {
      type: 'ReviewSentToOwners',
      data: { reviewId: 'rv-1', reason: 'too-few-deciders', at: LATER },
    };
    given(decider, [...reusedHistory, ...edit, sentToOwners], asUser(RUNNER, 'owner'))
      .when({ type: 'ApproveReview', data: { reviewId: 'rv-1' } })
      .thenThrows('forbidden', REVIEW_MESSAGES.ownStep);
  });
});

describe("a step's review rule", () => {
  it('fills in its defaults: one approval; self-approval only when the runner reviews', () => {
    expect(stepReviewSchema.parse({ by: 'role', role: 'reviewer' })).toEqual({
      by: 'role',
      role: 'reviewer',
      approvals: 1,
      selfApproval: false,
    });
    expect(stepReviewSchema.parse({})).toEqual({ by: 'runner', approvals: 1, selfApproval: true });
  });

  it('refuses members without people, more approvals than people, a role rule without a role', () => {
    expect(stepReviewSchema.safeParse({ by: 'members' }).success).toBe(false);
    expect(
      stepReviewSchema.safeParse({ by: 'members', userIds: [crypto.randomUUID()], approvals: 2 }).success,
    ).toBe(false);
    expect(stepReviewSchema.safeParse({ by: 'role' }).success).toBe(false);
    expect(stepReviewSchema.safeParse({ by: 'role', role: 'auditor' }).success).toBe(false);
    expect(stepReviewSchema.safeParse({ by: 'runner', dueInHours: 8761 }).success).toBe(false);
  });
});
