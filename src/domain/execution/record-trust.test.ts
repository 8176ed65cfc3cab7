import { describe, expect, it } from 'vitest';
import { firstUnverifiedPosition, isVerifiedAt, markReviewAudits, type RecordTrust } from './record-trust';
import type { ReviewAudit, ReviewDecisionAudit } from './review-audit';

/** Given what the record check said, which events, decisions and reviews may be taken as fact. */

const VERIFIED: RecordTrust = { verified: true };
const changedAt = (firstBadPosition: number): RecordTrust => ({ verified: false, firstBadPosition });
const KEY_MISMATCH: RecordTrust = { verified: false, keyMismatch: true };

const decision = (position: number): ReviewDecisionAudit => ({
  decision: 'approved',
  position,
  userId: `user-${position}`,
  role: 'reviewer',
  comment: null,
  at: '2025-01-02T03:04:05.000Z',
  seen: [],
});

const review = (requestedPosition: number, decisions: number[], lastPosition?: number): ReviewAudit => ({
  reviewId: `review-${requestedPosition}`,
  stepId: 'step-1',
  requestedBy: 'runner',
  requestedAt: '2025-01-02T03:04:05.000Z',
  requestedPosition,
  lastPosition: lastPosition ?? Math.max(requestedPosition, ...decisions),
  asked: { by: 'members', userIds: [], role: null, approvalsNeeded: decisions.length || 1 },
  dueAt: null,
  note: null,
  decisions: decisions.map(decision),
  due: null,
  handedBack: [],
  ownersToo: false,
  status: decisions.length > 0 ? 'approved' : 'pending',
  decidedAt: null,
  waitedMs: null,
});

const marks = (audits: ReturnType<typeof markReviewAudits>) =>
  audits.map((a) => ({ verified: a.verified, decisions: a.decisions.map((d) => d.verified) }));

describe('what a record check leaves verified', () => {
  it('a record that verified: every position', () => {
    expect(firstUnverifiedPosition(VERIFIED)).toBeNull();
    expect([1, 2, 1000].map((p) => isVerifiedAt(VERIFIED, p))).toEqual([true, true, true]);
  });

  it('a record changed at a position: the positions before it only, that one and every later one not', () => {
    const check = changedAt(5);
    expect(firstUnverifiedPosition(check)).toBe(5);
    expect([1, 4, 5, 6, 99].map((p) => isVerifiedAt(check, p))).toEqual([true, true, false, false, false]);
  });

  it('a key that does not match: no position at all', () => {
    expect(firstUnverifiedPosition(KEY_MISMATCH)).toBe(1);
    expect([1, 2, 50].map((p) => isVerifiedAt(KEY_MISMATCH, p))).toEqual([false, false, false]);
  });
});

describe('the review decisions a record check leaves verified', () => {
  const audits = [review(4, [6, 8]), review(10, [12]), review(14, [])];

  it('all of them when the record verified', () => {
    expect(marks(markReviewAudits(audits, VERIFIED))).toEqual([
      { verified: true, decisions: [true, true] },
      { verified: true, decisions: [true] },
      { verified: true, decisions: [] },
    ]);
  });

  it('a decision recorded at or after the first changed position is not; the ones before are', () => {
    expect(marks(markReviewAudits(audits, changedAt(8)))).toEqual([
      // The review rests on its second decision, which is the changed event.
      { verified: false, decisions: [true, false] },
      { verified: false, decisions: [false] },
      { verified: false, decisions: [] },
    ]);
  });

  it('a decision whose review request is unverified is not either', () => {
    // Changed at the request of the second review: its decision rests on it.
    expect(marks(markReviewAudits(audits, changedAt(10)))).toEqual([
      { verified: true, decisions: [true, true] },
      { verified: false, decisions: [false] },
      { verified: false, decisions: [] },
    ]);
  });

  it('a review changed after its decisions (a withdrawal, a due time) is not, its earlier decisions are', () => {
    const withdrawn = [review(4, [6], 9)];
    expect(marks(markReviewAudits(withdrawn, changedAt(9)))).toEqual([
      { verified: false, decisions: [true] },
    ]);
    expect(marks(markReviewAudits(withdrawn, changedAt(10)))).toEqual([
      { verified: true, decisions: [true] },
    ]);
  });

  it('nothing when the key does not match', () => {
    expect(marks(markReviewAudits(audits, KEY_MISMATCH))).toEqual([
      { verified: false, decisions: [false, false] },
      { verified: false, decisions: [false] },
      { verified: false, decisions: [] },
    ]);
  });

  it('keeps everything else of the review as it was', () => {
    const [marked] = markReviewAudits([review(4, [6])], changedAt(6));
    expect(marked).toMatchObject({ reviewId: 'review-4', requestedPosition: 4, status: 'approved' });
    expect(marked?.decisions[0]).toMatchObject({ position: 6, userId: 'user-6', verified: false });
  });
});
