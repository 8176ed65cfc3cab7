import type { ReviewAudit, ReviewDecisionAudit } from './review-audit';

/**
 * What a check of a record's hashes said, as far as which of its events may be taken as fact: all of them, none
 * from a position on (one was changed, removed, reordered or added there), or none at all (the server's key is
 * not the one the record was made with, so nothing can be checked).
 */
export type RecordTrust =
  | { verified: true }
  | { verified: false; firstBadPosition: number }
  | { verified: false; keyMismatch: true };

/**
 * The first stream position whose event is not verified, every later one with it: a hash chains each event to
 * the one before, so after a change nothing further is proved. 1 when the key does not match; null when the
 * whole record verified.
 */
export function firstUnverifiedPosition(check: RecordTrust): number | null {
  if (check.verified) return null;
  return 'keyMismatch' in check ? 1 : check.firstBadPosition;
}

/** Whether the event at `position` is proved to be the one the server appended. */
export function isVerifiedAt(check: RecordTrust, position: number): boolean {
  const first = firstUnverifiedPosition(check);
  return first === null || position < first;
}

export type VerifiedDecision = ReviewDecisionAudit & { verified: boolean };

/** A review with whether it, and each of its decisions, rests on verified events only. */
export type VerifiedReviewAudit = Omit<ReviewAudit, 'decisions'> & {
  decisions: VerifiedDecision[];
  verified: boolean;
};

/**
 * Marks what rests on unverified events. A decision is verified when the event that recorded it and the
 * request it answers both are; a review when its request and every event that changed it (decisions, due
 * time, hand-backs, a withdrawal: up to its `lastPosition`) are.
 */
export function markReviewAudits(audits: readonly ReviewAudit[], check: RecordTrust): VerifiedReviewAudit[] {
  return audits.map((audit) => {
    const requestVerified = isVerifiedAt(check, audit.requestedPosition);
    return {
      ...audit,
      decisions: audit.decisions.map((decision) => ({
        ...decision,
        verified: requestVerified && isVerifiedAt(check, decision.position),
      })),
      verified: requestVerified && isVerifiedAt(check, audit.lastPosition),
    };
  });
}
