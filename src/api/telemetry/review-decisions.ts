import type { ExecutionEvent, ExecutionState } from '../../domain/execution/types';
import { recordAttribute, traceReviewDecision } from './spans';

/** Events of a command and the execution after them: `version` is the stream position of the last one. */
interface Handled {
  state: ExecutionState;
  version: number;
  events: ExecutionEvent[];
  /** A command sent again: its events are its first answer's, traced then. */
  repeated?: boolean;
}

/**
 * A span for each review decision among a command's events: an approval, a rejection, a due time passed
 * (see traceReviewDecision). The decider's role, never who they are.
 */
export function traceReviewDecisions(executionId: string, handled: Handled): void {
  const { events, version, state, repeated } = handled;
  if (repeated) return;
  events.forEach((event, index) => {
    if (event.type !== 'ReviewApproved' && event.type !== 'ReviewRejected' && event.type !== 'ReviewDue')
      return;
    const review = state.reviews.find((candidate) => candidate.id === event.data.reviewId);
    if (!review) return;
    const waited = Date.parse(event.data.at) - Date.parse(review.requestedAt);
    traceReviewDecision({
      record: recordAttribute('execution', executionId),
      position: version - (events.length - 1 - index),
      reviewId: review.id,
      decision:
        event.type === 'ReviewApproved'
          ? 'approve'
          : event.type === 'ReviewRejected'
            ? 'reject'
            : `due_${event.data.onDue}`,
      status: review.status,
      approvals: review.approvalsGiven.length,
      needed: review.approvalsNeeded,
      role: event.type === 'ReviewDue' ? null : event.data.role,
      waitedMs: Number.isFinite(waited) ? waited : null,
    });
  });
}
