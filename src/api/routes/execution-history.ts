import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../domain/errors';
import { decider } from '../../domain/execution/decider';
import { executionStreamId, toExecutionEvent } from '../../projections/project-execution-events';
import { may } from '../access';
import { executionAnswer, listedExecution } from '../answer-schemas';
import { historyEventSchema } from '../history-event-schemas';
import { userIdOf } from '../plugins/auth';
import { flowIdParams, idParams } from '../request-schemas';
import { actorOf } from '../users/users-repository';

const eventsQuery = z.object({
  /** The stream position to read after: 0 from the start, or the `next` of the page before. */
  after: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

const stateQuery = z.object({
  /** A stream position; past the end means the end, none means the end. */
  at: z.coerce.number().int().min(1).optional(),
});

const eventsPage = z.object({
  events: z.array(historyEventSchema),
  /** The position to ask after for the next page; null at the end. */
  next: z.int().nullable(),
});

/**
 * The execution's own log, for auditors and debugging: its events page by page with who caused each, and
 * the execution as it stood after any of them, folded from the log alone.
 */
export const executionHistoryRoutes: FastifyPluginAsyncZod = async (app) => {
  const { store } = app;

  /** The owner is who started the stream: the log answers it, so an id the user may not read is missing. */
  async function readableStream(executionId: string, userId: string) {
    const { events } = await store.readStream(executionStreamId(executionId), { limit: 1 });
    const first = events[0] && toExecutionEvent(events[0]);
    if (first?.type !== 'ExecutionStarted' || !may(userId, 'read', 'execution', first.data.userId)) {
      throw notFound('Execution not found');
    }
  }

  app.get(
    '/api/executions/:id/events',
    { schema: { params: idParams, querystring: eventsQuery, response: { 200: eventsPage } } },
    async (request) => {
      const { id } = request.params;
      const { after, limit } = request.query;
      await readableStream(id, userIdOf(request));
      const { version, events } = await store.readStream(executionStreamId(id), { after, limit });
      const actor = await app.users.actors(events.map(actorOf));
      const last = events.at(-1)?.streamPosition ?? after;
      return {
        events: events.map((event) => ({
          ...toExecutionEvent(event),
          position: event.streamPosition,
          at: event.metadata.at ?? event.createdAt,
          actor: actor(actorOf(event)),
          commandId: event.metadata.commandId ?? null,
        })),
        next: last < version ? last : null,
      };
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
    { schema: { params: flowIdParams, response: { 200: z.array(listedExecution) } } },
    async (request) => {
      const { flowId } = request.params;
      const userId = userIdOf(request);
      await app.flows.owned(flowId, userId);
      return app.executionViews.listed(flowId, userId);
    },
  );
};
