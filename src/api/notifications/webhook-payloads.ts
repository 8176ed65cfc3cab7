import type { ExecutionEvent, ExecutionState, Review } from '../../domain/execution/types';
import { executionLink, reviewLink } from '../../domain/review-link';
import type { RecordedEvent } from '../../eventstore';
import type { EventSource } from '../commands/command-handler';
import type { WebhookEvent } from '../workspaces';

/**
 * A person in a payload: the id, and the name the database adds when the delivery is written (webhook_named:
 * their first and last name, null when they gave none).
 */
const person = (userId: string) => ({ userId });

/** How a review stands after its event: what a receiver needs to act on it without asking the API. */
function reviewOf(review: Review, flowId: string, executionId: string, publicUrl: string) {
  return {
    reviewId: review.id,
    status: review.status,
    approvalsGiven: review.approvalsGiven.length,
    approvalsNeeded: review.approvalsNeeded,
    approvals: review.approvalsGiven.map((approval) => ({
      ...person(approval.userId),
      role: approval.role,
      comment: approval.comment,
      at: approval.at,
    })),
    rejection: review.rejection
      ? {
          ...person(review.rejection.userId),
          role: review.rejection.role,
          reason: review.rejection.reason,
          at: review.rejection.at,
        }
      : null,
    askedOf: { by: review.by, role: review.role, people: review.userIds.map(person) },
    requestedBy: person(review.requestedBy),
    requestedAt: review.requestedAt,
    dueAt: review.dueAt,
    onDue: review.onDue,
    ownersToo: review.ownersToo,
    note: review.note,
    asksAgain: review.asksAgain ?? null,
    link: `${publicUrl}${reviewLink(flowId, executionId, review.stepId)}`,
  };
}

/**
 * What an execution's event becomes for webhooks: its type and data, from the execution as it stands right after
 * the event (a review's status and approvals, the step's name), with the ids, the people (names added by the
 * database), the flow and a link into the app. Null: no webhook is told of it.
 */
export function executionWebhookEvent(
  recorded: RecordedEvent,
  state: ExecutionState,
  workspaceId: string,
  publicUrl: string,
): WebhookEvent | null {
  const executionId = state.id;
  const event = { type: recorded.type, data: recorded.data } as ExecutionEvent;
  const actorId = recorded.metadata.userId as string | undefined;
  const common = {
    executionId,
    flowId: state.flowId,
    sequence: recorded.streamPosition,
    execution: {
      status: state.status,
      startedBy: person(state.userId),
      link: `${publicUrl}${executionLink(state.flowId, executionId)}`,
    },
    actor: actorId ? person(actorId) : null,
  };
  const hookEvent = (type: string, data: Record<string, unknown>): WebhookEvent => ({
    eventId: recorded.eventId,
    type,
    at: recorded.createdAt,
    workspaceId,
    data: { ...common, ...data },
  });
  const aboutReview = (type: string, reviewId: string, data: Record<string, unknown> = {}) => {
    const review = state.reviews.find((r) => r.id === reviewId);
    if (!review) return null;
    const step = state.steps.find((s) => s.id === review.stepId);
    return hookEvent(type, {
      reviewId,
      stepId: review.stepId,
      step: { stepId: review.stepId, name: step?.name ?? null, order: step?.order ?? null },
      review: reviewOf(review, state.flowId, executionId, publicUrl),
      ...data,
    });
  };
  switch (event.type) {
    case 'ExecutionCompleted':
      return hookEvent('execution.completed', {});
    case 'ReviewRequested':
      return aboutReview('review.requested', event.data.reviewId);
    case 'ReviewApproved':
      return aboutReview('review.decided', event.data.reviewId, {
        decision: 'approved',
        // One approval of several needed decides nothing yet: `final` says whether this one decided it.
        final: state.reviews.find((r) => r.id === event.data.reviewId)?.status === 'approved',
        decidedBy: { ...person(event.data.userId), role: event.data.role },
        comment: event.data.comment,
      });
    case 'ReviewRejected':
      return aboutReview('review.decided', event.data.reviewId, {
        decision: 'rejected',
        final: true,
        decidedBy: { ...person(event.data.userId), role: event.data.role },
        reason: event.data.reason,
      });
    case 'ReviewDue':
      return aboutReview('review.due', event.data.reviewId, { onDue: event.data.onDue });
    case 'ReviewHandedBack':
      return aboutReview('review.handedBack', event.data.reviewId, { left: person(event.data.userId) });
    case 'ReviewSentToOwners':
      return aboutReview('review.ownersToo', event.data.reviewId, { reason: event.data.reason });
    case 'ReviewWithdrawn':
      return aboutReview('review.withdrawn', event.data.reviewId, { reason: 'execution-reset' });
    default:
      return null;
  }
}

/** The webhook event of a command's event, when a webhook may want it (an execution's, in a workspace). */
export function webhookEventOf(
  recorded: RecordedEvent,
  index: number,
  source: EventSource,
  publicUrl: string,
): WebhookEvent | null {
  if (source.workspaceId === null || source.streamType !== 'execution') return null;
  const state = source.states[index] as ExecutionState | undefined;
  if (!state) return null;
  return executionWebhookEvent(recorded, state, source.workspaceId, publicUrl);
}
