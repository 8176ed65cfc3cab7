import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { decider } from '../../domain/execution/decider';
import { markReviewAudits, type RecordTrust } from '../../domain/execution/record-trust';
import { reviewAudit } from '../../domain/execution/review-audit';
import { REVIEW_STATUSES, SHOWN_EXECUTION_STATUSES } from '../../domain/execution/types';
import { requestedId } from '../../domain/record-id';
import { ON_DUE, REVIEW_ROLES } from '../../domain/step-review';
import { WORKSPACE_ROLES } from '../../domain/workspace/events';
import { executionStreamId, toExecutionEvent } from '../../projections/project-execution-events';
import { userIdOf } from '../auth/plugin';
import { executionAnswer, listedExecution, recordId } from '../http/answer-schemas';
import {
  answerOf,
  DEFAULT_PAGE_SIZE,
  type ListOrder,
  listAnswer,
  listAnswerInMemory,
  pageAsked,
  pagedOr,
  pageQuery,
} from '../http/pages';
import { flowIdParams, idParams, requestTime, wholeNumber } from '../http/request-schemas';
import { actorOf } from '../users/users-repository';
import { executionAggregate } from './execution-aggregate';
import { EXECUTIONS_ORDER, WORKSPACE_EXECUTIONS_ORDER } from './execution-views';
import { historyEventSchema, unreadableHistoryEventSchema } from './history-event-schemas';
import { isReadable, readableExecutionEvents } from './readable-events';

/** An execution's log is read page by page, by stream position: a whole log may be long. */
/** An execution's reviews as an auditor reads them, in the order they were asked for (folded from the stream). */
const REVIEW_AUDIT_ORDER: ListOrder = {
  list: 'review-audit',
  keys: [{ sql: 'requested_position', order: 'asc', type: 'int' }],
};

const EVENTS_ORDER: ListOrder = {
  list: 'execution-events',
  keys: [{ sql: 'stream_position', order: 'asc', type: 'int' }],
};
/** The page size when none is asked for: the log is always answered in pages. */
const EVENTS_PAGE_SIZE = 100;

/** Why `at` is refused: not a whole number from 1, or given twice. */
export const AT_REFUSED = 'một vị trí trong stream: số nguyên từ 1 trở lên, gửi một lần';

const stateQuery = z.object({
  /** A stream position; past the end means the end, none means the end. */
  at: wholeNumber(1, Number.MAX_SAFE_INTEGER, AT_REFUSED).optional(),
});

const workspaceExecutionsQuery = pageQuery.extend({
  flowId: requestedId().optional().describe('Only the executions of this flow'),
  userId: requestedId().optional().describe('Only the executions this member started'),
  status: z.enum(SHOWN_EXECUTION_STATUSES).optional(),
  from: requestTime().optional().describe('Only executions started at or after this time'),
  to: requestTime().optional().describe('Only executions started before this time'),
});

const workspaceExecution = listedExecution
  .extend({
    flowId: recordId,
    /** The flow's name as it is now; empty once the flow is deleted. */
    flowName: z.string(),
    userId: recordId,
    /** Who started it, as the navigation bar names a user. */
    userName: z.string(),
    completedAt: z.string().nullable(),
  })
  .meta({ id: 'WorkspaceExecution' });

const workspaceExecutionsPage = z.object({
  items: z.array(workspaceExecution),
  nextCursor: z.string().nullable(),
});

/** A person as the history names them: their id and display name (null once the user is gone). */
const namedPerson = z.object({ userId: recordId, name: z.string().nullable() });

const decisionFields = {
  position: z.int().describe('The stream position of the event that recorded the decision'),
  verified: z
    .boolean()
    .describe(
      "Whether the record check proves the decision: false when the event that recorded it, or the review request it answers, is at or after the record's first changed position, or the server's key does not match the record's",
    ),
  userId: recordId,
  name: z.string().nullable(),
  role: z.enum(WORKSPACE_ROLES).nullable().describe('Their role in the workspace when they decided'),
  at: z.string(),
  seen: z
    .array(
      z.object({
        resultId: recordId,
        label: z.string().nullable(),
        result: z.string().nullable().describe('Its text when they decided; null: deleted before'),
      }),
    )
    .describe('The reviewed results as they read at the decision'),
};

const reviewAuditAnswer = z
  .object({
    reviewId: recordId,
    stepId: recordId,
    requestedBy: namedPerson,
    requestedAt: z.string(),
    requestedPosition: z.int().describe('The stream position of the event that asked for the review'),
    verified: z
      .boolean()
      .describe(
        "Whether the record check proves the review as told: false when its request or any event that changed it (a decision, its due time, a hand-back, a withdrawal) is at or after the record's first changed position, or the server's key does not match the record's. Each decision says so for itself too",
      ),
    asked: z.object({
      by: z.enum(['members', 'role']),
      members: z.array(namedPerson).describe('The people named; empty when a role was asked'),
      role: z.enum(REVIEW_ROLES).nullable(),
      approvalsNeeded: z.int(),
    }),
    dueAt: z.string().nullable(),
    note: z.string().nullable(),
    decisions: z.array(
      z.discriminatedUnion('decision', [
        z.object({ decision: z.literal('approved'), comment: z.string().nullable(), ...decisionFields }),
        z.object({ decision: z.literal('rejected'), reason: z.string(), ...decisionFields }),
      ]),
    ),
    due: z
      .object({ onDue: z.enum(ON_DUE), at: z.string() })
      .nullable()
      .describe('When its due time fired and what it did; null: it did not'),
    handedBack: z
      .array(z.object({ userId: recordId, name: z.string().nullable(), at: z.string() }))
      .describe('People it named who left the workspace while it waited: it went to the owners'),
    ownersToo: z.boolean().describe("Whether the workspace's owners could decide it too"),
    status: z.enum(REVIEW_STATUSES),
    decidedAt: z.string().nullable(),
    waitedMs: z.int().nullable().describe('Request to final decision, or to now while pending'),
  })
  .meta({ id: 'ReviewAudit' });

const eventsPage = z.object({
  items: z.array(z.union([historyEventSchema, unreadableHistoryEventSchema])),
  nextCursor: z.string().nullable(),
});

const stateAnswer = executionAnswer
  .extend({
    unreadable: z
      .array(z.int())
      .describe('Positions up to `at` whose events could not be read: the state leaves them out'),
  })
  .meta({ id: 'ExecutionAtPoint' });

const reviewAuditsHeader = 'unreadable-events';

/**
 * Whose the execution is, and in which workspace, is in its first event: the log answers it, so an id the
 * user may not read is missing.
 */
export async function readableExecutionStream(app: FastifyInstance, executionId: string, userId: string) {
  const { events } = await app.store.readStream(executionStreamId(executionId), { limit: 1 });
  const started = readableExecutionEvents(events).reduce(decider.evolve, decider.initialState());
  await app.commands.require(executionAggregate, started, userId, 'read');
}

/**
 * The execution's own log, for auditors and debugging: its events page by page with who caused each, and
 * the execution as it stood after any of them, folded from the log alone.
 */
export const executionHistoryRoutes: FastifyPluginAsyncZod = async (app) => {
  const { store } = app;

  const readableStream = (executionId: string, userId: string) =>
    readableExecutionStream(app, executionId, userId);

  app.get(
    '/api/executions/:id/events',
    { schema: { params: idParams, querystring: pageQuery, response: { 200: eventsPage } } },
    async (request) => {
      const { id } = request.params;
      await readableStream(id, userIdOf(request));
      const page = pageAsked(request.query, EVENTS_ORDER) ?? { limit: EVENTS_PAGE_SIZE, after: null };
      const after = (page.after?.[0] as number | undefined) ?? 0;
      const { events } = await store.readStream(executionStreamId(id), { after, limit: page.limit + 1 });
      const actor = await app.users.actors(events.map(actorOf));
      const logged = events.map((event) => {
        const recorded = {
          position: event.streamPosition,
          at: event.metadata.at ?? event.createdAt,
          actor: actor(actorOf(event)),
          commandId: event.metadata.commandId ?? null,
          pageKey: [event.streamPosition],
        };
        return isReadable(event)
          ? { ...toExecutionEvent(event), ...recorded }
          : { ...recorded, type: event.type, readable: false as const, raw: event.data ?? null };
      });
      return answerOf(logged, page, EVENTS_ORDER);
    },
  );

  app.get(
    '/api/executions/:id/state',
    { schema: { params: idParams, querystring: stateQuery, response: { 200: stateAnswer } } },
    async (request) => {
      const { id } = request.params;
      const { at } = request.query;
      const userId = userIdOf(request);
      const { events } = await store.readStream(executionStreamId(id), at === undefined ? {} : { limit: at });
      const state = readableExecutionEvents(events).reduce(decider.evolve, decider.initialState());
      await app.commands.require(executionAggregate, state, userId, 'read');
      const unreadable = events.filter((event) => !isReadable(event)).map((event) => event.streamPosition);
      return { ...state, version: events.at(-1)?.streamPosition ?? 0, unreadable };
    },
  );

  // Each review told for an auditor, with the people named: the domain folds the log, this names who is who.
  app.get(
    '/api/executions/:id/reviews/audit',
    {
      schema: {
        params: idParams,
        querystring: pageQuery,
        response: {
          200: {
            description:
              "Each review, folded from the readable events, with whether the record's hashes prove it and each decision (see GET /api/executions/{id}/verify), in the order they were asked for. Events that could not be read are left out and named by their positions in the Unreadable-Events header (e.g. 5,6; absent when none)",
            content: { 'application/json': { schema: pagedOr(reviewAuditAnswer) } },
          },
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      await readableStream(id, userIdOf(request));
      const streamId = executionStreamId(id);
      const [{ events }, check] = await Promise.all([
        store.readStream(streamId),
        store.verifyStream(streamId),
      ]);
      const unreadable = events.filter((event) => !isReadable(event)).map((event) => event.streamPosition);
      if (unreadable.length > 0) reply.header(reviewAuditsHeader, unreadable.join(','));
      const positions = events.filter(isReadable).map((event) => event.streamPosition);
      // The stream was read above: a check that finds no stream (deleted between the two reads) proves nothing.
      const trust: RecordTrust = check ?? { verified: false, firstBadPosition: 1 };
      const audits = markReviewAudits(
        reviewAudit(readableExecutionEvents(events), new Date().toISOString(), positions),
        trust,
      );
      const people = audits.flatMap((a) => [
        a.requestedBy,
        ...a.asked.userIds,
        ...a.decisions.map((d) => d.userId),
        ...a.handedBack.map((h) => h.userId),
      ]);
      const actor = await app.users.actors(people);
      const named = (userId: string) => ({ userId, name: actor(userId).name });
      const told = audits.map(
        ({
          requestedBy,
          asked: { userIds, ...asked },
          decisions,
          handedBack,
          lastPosition: _,
          ...audit
        }) => ({
          ...audit,
          handedBack: handedBack.map((h) => ({ ...h, name: actor(h.userId).name })),
          requestedBy: named(requestedBy),
          asked: { ...asked, members: userIds.map(named) },
          decisions: decisions.map((decision) => ({ ...decision, name: actor(decision.userId).name })),
        }),
      );
      return listAnswerInMemory(request.query, REVIEW_AUDIT_ORDER, told, (audit) => [
        audit.requestedPosition,
      ]);
    },
  );

  // The auditor's list: every run of the workspace, whoever started it, always answered in pages.
  app.get(
    '/api/workspaces/:id/executions',
    {
      schema: {
        params: idParams,
        querystring: workspaceExecutionsQuery,
        response: { 200: workspaceExecutionsPage },
      },
    },
    async (request) => {
      const { id } = request.params;
      const userId = userIdOf(request);
      await app.commands.requireIn(id, userId, 'read', 'execution');
      const { flowId, userId: startedBy, status, from, to } = request.query;
      const page = pageAsked(request.query, WORKSPACE_EXECUTIONS_ORDER) ?? {
        limit: DEFAULT_PAGE_SIZE,
        after: null,
      };
      const rows = await app.executionViews.inWorkspace(
        id,
        userId,
        { flowId, userId: startedBy, status, from, to },
        page,
      );
      return answerOf(rows, page, WORKSPACE_EXECUTIONS_ORDER);
    },
  );

  app.get(
    '/api/flows/:flowId/executions',
    {
      schema: { params: flowIdParams, querystring: pageQuery, response: { 200: pagedOr(listedExecution) } },
    },
    async (request) => {
      const { flowId } = request.params;
      const userId = userIdOf(request);
      await app.flows.owned(flowId, userId);
      return listAnswer(request.query, EXECUTIONS_ORDER, (page) =>
        app.executionViews.listed(flowId, userId, page),
      );
    },
  );
};
