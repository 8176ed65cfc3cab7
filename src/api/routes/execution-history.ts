import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../domain/errors';
import { decider } from '../../domain/execution/decider';
import type { EventStore } from '../../eventstore';
import { executionStreamId, toExecutionEvent } from '../../projections/project-execution-events';
import { may } from '../access';
import { executionAnswer, listedExecution } from '../answer-schemas';
import { EXECUTIONS_ORDER } from '../executions/execution-views';
import { historyEventSchema } from '../history-event-schemas';
import { answerOf, type ListOrder, listAnswer, pageAsked, pagedOr, pageQuery } from '../pages';
import { userIdOf } from '../plugins/auth';
import { flowIdParams, idParams } from '../request-schemas';
import { actorOf } from '../users/users-repository';

/** An execution's log is read page by page, by stream position: a whole log may be long. */
const EVENTS_ORDER: ListOrder = {
  list: 'execution-events',
  keys: [{ sql: 'stream_position', order: 'asc', type: 'int' }],
};
/** The page size when none is asked for: the log is always answered in pages. */
const EVENTS_PAGE_SIZE = 100;

const stateQuery = z.object({
  /** A stream position; past the end means the end, none means the end. */
  at: z.coerce.number().int().min(1).optional(),
});

const eventsPage = z.object({ items: z.array(historyEventSchema), nextCursor: z.string().nullable() });

/** The owner is who started the stream: the log answers it, so an id the user may not read is missing. */
export async function readableExecutionStream(store: EventStore, executionId: string, userId: string) {
  const { events } = await store.readStream(executionStreamId(executionId), { limit: 1 });
  const first = events[0] && toExecutionEvent(events[0]);
  if (first?.type !== 'ExecutionStarted' || !may(userId, 'read', 'execution', first.data.userId)) {
    throw notFound('Execution not found');
  }
}

/**
 * The execution's own log, for auditors and debugging: its events page by page with who caused each, and
 * the execution as it stood after any of them, folded from the log alone.
 */
export const executionHistoryRoutes: FastifyPluginAsyncZod = async (app) => {
  const { store } = app;

  const readableStream = (executionId: string, userId: string) =>
    readableExecutionStream(store, executionId, userId);

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
      const logged = events.map((event) => ({
        ...toExecutionEvent(event),
        position: event.streamPosition,
        at: event.metadata.at ?? event.createdAt,
        actor: actor(actorOf(event)),
        commandId: event.metadata.commandId ?? null,
        pageKey: [event.streamPosition],
      }));
      return answerOf(logged, page, EVENTS_ORDER);
    },
  );

  app.get(
    '/api/executions/:id/state',
    { schema: { params: idParams, querystring: stateQuery, response: { 200: executionAnswer } } },
    async (request) => {
      const { id } = request.params;
      const { at } = request.query;
      const userId = userIdOf(request);
      const { events } = await store.readStream(executionStreamId(id), at === undefined ? {} : { limit: at });
      const state = events.map(toExecutionEvent).reduce(decider.evolve, decider.initialState());
      if (!state.exists || !may(userId, 'read', 'execution', state.userId)) {
        throw notFound('Execution not found');
      }
      return { ...state, version: events.at(-1)?.streamPosition ?? 0 };
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
