import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../domain/errors';
import { REVIEW_MESSAGES } from '../../domain/execution/reviews';
import { type ExecutionState, REVIEW_STATUSES } from '../../domain/execution/types';
import { requiredText } from '../../domain/filled-text';
import { requestedId } from '../../domain/record-id';
import { MAX_REVIEW_TEXT, MAX_REVIEWERS, ON_DUE, REVIEW_ROLES } from '../../domain/step-review';
import { userIdOf } from '../auth/plugin';
import { approvalAnswer, recordId, reviewAnswer, storedAt } from '../http/answer-schemas';
import { listAnswer, pagedOr, pageQuery } from '../http/pages';
import { commandIdOf, idParams, requestTime } from '../http/request-schemas';
import { reviewSettled } from '../telemetry/metrics';
import { REVIEWS_ORDER } from './reviews-repository';

const inboxQuery = pageQuery.extend({
  status: z.enum(['pending', 'done']).default('pending').describe('pending: still to decide; done: decided'),
});

const inboxReview = z
  .object({
    id: recordId,
    executionId: recordId,
    flowId: recordId,
    stepId: recordId,
    flowName: z.string(),
    stepName: z.string(),
    requestedBy: z.object({ userId: recordId, name: z.string() }),
    requestedAt: storedAt,
    dueAt: storedAt.nullable(),
    approvalsNeeded: z.int(),
    approvalsGiven: z.array(approvalAnswer),
    status: z.enum(REVIEW_STATUSES),
  })
  .meta({ id: 'InboxReview' });

const approveBody = z.preprocess(
  (body) => body ?? {},
  z.strictObject({ comment: z.string().max(MAX_REVIEW_TEXT).optional() }),
);
// No body at all is no fields: the refusal then names the missing reason.
const rejectBody = z.preprocess(
  (body) => body ?? {},
  z.strictObject({
    reason: requiredText(REVIEW_MESSAGES.reasonRequired, MAX_REVIEW_TEXT),
  }),
);
const requestParams = z.object({ id: requestedId(), stepId: requestedId() });
const requestBody = z.preprocess(
  (body) => body ?? {},
  z.strictObject({
    userIds: z.array(requestedId()).min(1).max(MAX_REVIEWERS).optional(),
    role: z.enum(REVIEW_ROLES).optional(),
    approvals: z.int().min(1).max(MAX_REVIEWERS).optional(),
    dueAt: requestTime().optional(),
    onDue: z.enum(ON_DUE).optional(),
    note: z.string().max(MAX_REVIEW_TEXT).optional(),
  }),
);

/** The review as the execution now holds it. */
function reviewIn(state: ExecutionState, reviewId: string) {
  const review = state.reviews.find((r) => r.id === reviewId);
  if (!review) throw notFound(REVIEW_MESSAGES.reviewNotFound);
  return review;
}

export const reviewRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/reviews',
    { schema: { querystring: inboxQuery, response: { 200: pagedOr(inboxReview) } } },
    async (request) =>
      listAnswer(request.query, REVIEWS_ORDER, (page) =>
        app.reviews.inbox(userIdOf(request), request.query.status, page),
      ),
  );

  /** A decision on a review (the decider weighs the role the access check reads). */
  const decide = async (
    reviewId: string,
    userId: string,
    command:
      | { type: 'ApproveReview'; data: { reviewId: string; comment?: string | undefined } }
      | {
          type: 'RejectReview';
          data: { reviewId: string; reason: string };
        },
    commandId: string | undefined,
  ) => {
    const executionId = await app.reviews.executionOf(reviewId, userId);
    const loaded = await app.executions.recent(executionId, userId);
    const waited = loaded.state.reviews.some((r) => r.id === reviewId && r.status === 'pending');
    const { state } = await app.executions.handle(executionId, userId, command, { commandId, loaded });
    const review = reviewIn(state, reviewId);
    if (waited) reviewSettled(review);
    return review;
  };

  app.post(
    '/api/reviews/:id/approve',
    { schema: { params: idParams, body: approveBody, response: { 200: reviewAnswer } } },
    async (request) => {
      const { id } = request.params;
      return decide(
        id,
        userIdOf(request),
        { type: 'ApproveReview', data: { reviewId: id, comment: request.body.comment } },
        commandIdOf(request),
      );
    },
  );

  app.post(
    '/api/reviews/:id/reject',
    { schema: { params: idParams, body: rejectBody, response: { 200: reviewAnswer } } },
    async (request) => {
      const { id } = request.params;
      return decide(
        id,
        userIdOf(request),
        { type: 'RejectReview', data: { reviewId: id, reason: request.body.reason } },
        commandIdOf(request),
      );
    },
  );

  app.post(
    '/api/executions/:id/steps/:stepId/review-requests',
    { schema: { params: requestParams, body: requestBody, response: { 201: reviewAnswer } } },
    async (request, reply) => {
      const { id, stepId } = request.params;
      const userId = userIdOf(request);
      const reviewId = randomUUID();
      // Whom the request may name is the workspace's members now: the decider checks them.
      const loaded = await app.executions.recent(id, userId);
      const { workspaceId } = loaded.state;
      const members = workspaceId === null ? undefined : await app.workspaces.members(workspaceId, userId);
      const { state, events } = await app.executions.handle(
        id,
        userId,
        { type: 'RequestReview', data: { reviewId, stepId, ...request.body } },
        { commandId: commandIdOf(request), loaded, members },
      );
      // A repeated request (the same Idempotency-Key) answers the review it made the first time.
      const requested = events.find((event) => event.type === 'ReviewRequested');
      const madeId = requested?.type === 'ReviewRequested' ? requested.data.reviewId : reviewId;
      return reply.status(201).send(reviewIn(state, madeId));
    },
  );
};
