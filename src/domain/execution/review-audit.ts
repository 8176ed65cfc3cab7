import type { OnDue, ReviewRole } from '../step-review';
import type { Role } from '../workspace/events';
import { decider } from './decider';
import type { ExecutionEvent, ExecutionState, Review, ReviewStatus } from './types';

/** A reviewed result as it read when a decision was made. */
export interface SeenResult {
  resultId: string;
  label: string | null;
  /** Its text at the moment of the decision; null when it had been deleted before it. */
  result: string | null;
}

interface DecisionBase {
  /** The stream position of the event that recorded it. */
  position: number;
  userId: string;
  /** Their role in the execution's workspace when they decided. */
  role: Role | null;
  at: string;
  /** What the decider had in front of them: the reviewed results, edits before the decision included. */
  seen: SeenResult[];
}

export type ReviewDecisionAudit =
  | (DecisionBase & { decision: 'approved'; comment: string | null })
  | (DecisionBase & { decision: 'rejected'; reason: string });

/** One review as an auditor reads it: who asked whom, who decided what, having seen which text, how long it took. */
export interface ReviewAudit {
  reviewId: string;
  stepId: string;
  requestedBy: string;
  requestedAt: string;
  /** The stream position of the event that asked for it. */
  requestedPosition: number;
  /**
   * The stream position of the last event that changed it (its request, a decision, its due time, a hand-back,
   * a withdrawal): what it is at the end rests on the events up to there.
   */
  lastPosition: number;
  asked: { by: 'members' | 'role'; userIds: string[]; role: ReviewRole | null; approvalsNeeded: number };
  dueAt: string | null;
  note: string | null;
  decisions: ReviewDecisionAudit[];
  /** When its due time fired, and what it did; null: it did not (yet). */
  due: { onDue: OnDue; at: string } | null;
  /** The people it named who left the workspace while it waited: it went to the owners. */
  handedBack: { userId: string; at: string }[];
  /** Whether the workspace's owners could decide it too (escalated, or handed back). */
  ownersToo: boolean;
  status: ReviewStatus;
  decidedAt: string | null;
  /** From the request to its final decision, or to now while it is pending; null when it ended undecided. */
  waitedMs: number | null;
}

/** What the fold carries: the execution as it stands, and each review's trail so far, oldest first. */
interface Trail {
  state: ExecutionState;
  audits: ReviewAudit[];
}

const seenIn = (state: ExecutionState, review: Review): SeenResult[] =>
  review.resultIds.map((resultId) => {
    const result = state.results.find((r) => r.id === resultId);
    return { resultId, label: result?.label ?? null, result: result?.result ?? null };
  });

const withDecision = (audits: ReviewAudit[], reviewId: string, decision: ReviewDecisionAudit) =>
  audits.map((audit) =>
    audit.reviewId === reviewId ? { ...audit, decisions: [...audit.decisions, decision] } : audit,
  );

/**
 * The trail's part of one event, given the execution just before and just after it. Whether a decision counts
 * (a second approval by the same person, a decision on a decided review) is evolve's to say: a decision is
 * recorded only when it changed the review. A review event this code does not know yet changes nothing here;
 * a new one (due, expired, withdrawn, handed back) is one case.
 */
function auditStep(
  audits: ReviewAudit[],
  event: ExecutionEvent,
  position: number,
  before: ExecutionState,
  after: ExecutionState,
) {
  switch (event.type) {
    case 'ReviewRequested': {
      const { data } = event;
      if (audits.some((audit) => audit.reviewId === data.reviewId)) return audits;
      const audit: ReviewAudit = {
        reviewId: data.reviewId,
        stepId: data.stepId,
        requestedBy: data.requestedBy,
        requestedAt: data.at,
        requestedPosition: position,
        lastPosition: position,
        asked: { by: data.by, userIds: [...data.userIds], role: data.role, approvalsNeeded: data.approvals },
        dueAt: data.dueAt,
        note: data.note,
        decisions: [],
        due: null,
        handedBack: [],
        ownersToo: false,
        status: 'pending',
        decidedAt: null,
        waitedMs: null,
      };
      return [...audits, audit];
    }

    case 'ReviewApproved': {
      const { reviewId, userId, role, comment, at } = event.data;
      const was = before.reviews.find((r) => r.id === reviewId);
      const now = after.reviews.find((r) => r.id === reviewId);
      // An approval the review ignored (a second one by the same person) is no decision; an owner's that
      // settles a review they approved before is one.
      if (
        !was ||
        !now ||
        (now.approvalsGiven.length === was.approvalsGiven.length && now.status === was.status)
      )
        return audits;
      const seen = seenIn(before, was);
      return withDecision(audits, reviewId, {
        decision: 'approved',
        position,
        userId,
        role,
        comment,
        at,
        seen,
      });
    }

    case 'ReviewRejected': {
      const { reviewId, userId, role, reason, at } = event.data;
      const was = before.reviews.find((r) => r.id === reviewId);
      if (was?.status !== 'pending') return audits;
      const seen = seenIn(before, was);
      return withDecision(audits, reviewId, {
        decision: 'rejected',
        position,
        userId,
        role,
        reason,
        at,
        seen,
      });
    }

    case 'ReviewHandedBack': {
      const { reviewId, userId, at } = event.data;
      return audits.map((audit) =>
        audit.reviewId === reviewId ? { ...audit, handedBack: [...audit.handedBack, { userId, at }] } : audit,
      );
    }

    // Due and withdrawn are the review's own state at the end (see settled).
    default:
      return audits;
  }
}

/** Status and decision time as the folded execution holds them, and the wait they make. */
function settled(audit: ReviewAudit, state: ExecutionState, now: string): ReviewAudit {
  const review = state.reviews.find((r) => r.id === audit.reviewId);
  const status = review?.status ?? audit.status;
  const decidedAt = review?.decidedAt ?? null;
  const end = decidedAt ?? (status === 'pending' ? now : null);
  const waitedMs = end === null ? null : Math.max(0, Date.parse(end) - Date.parse(audit.requestedAt));
  return {
    ...audit,
    status,
    decidedAt,
    due: review?.due ?? null,
    ownersToo: review?.ownersToo ?? false,
    waitedMs: Number.isNaN(waitedMs) ? null : waitedMs,
  };
}

/**
 * The trail with the event at `position` as the last to change each review it changed: in the trail (a step
 * above made a new object of it) or in the state (evolve made a new object of it; an event that changes no
 * review keeps the state's list as it was). Reviews are only ever appended, so both lists compare by index.
 */
function touched(
  audits: ReviewAudit[],
  was: ReviewAudit[],
  position: number,
  before: ExecutionState,
  after: ExecutionState,
): ReviewAudit[] {
  const changedInState =
    before.reviews === after.reviews
      ? null
      : new Set(after.reviews.filter((review, i) => before.reviews[i] !== review).map((review) => review.id));
  if (changedInState === null && audits === was) return audits;
  return audits.map((audit, i) =>
    (audit !== was[i] || changedInState?.has(audit.reviewId)) && audit.lastPosition !== position
      ? { ...audit, lastPosition: position }
      : audit,
  );
}

/**
 * Every review of an execution from its events, oldest first: what each decider saw is the reviewed results
 * folded up to their decision, so a text edited before it reads as edited. `now` ends the wait of a review
 * still pending. `positions` are the events' stream positions (1, 2, 3… when not given: an unreadable event
 * left out of `events` keeps its place in them), by which each decision and review names its events.
 */
export function reviewAudit(
  events: readonly ExecutionEvent[],
  now: string,
  positions: readonly number[] = events.map((_, i) => i + 1),
): ReviewAudit[] {
  const trail = events.reduce<Trail>(
    ({ state, audits }, event, i) => {
      const position = positions[i] ?? i + 1;
      const after = decider.evolve(state, event);
      const stepped = auditStep(audits, event, position, state, after);
      return { state: after, audits: touched(stepped, audits, position, state, after) };
    },
    { state: decider.initialState(), audits: [] },
  );
  return trail.audits.map((audit) => settled(audit, trail.state, now));
}
