import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  defaultModeOf,
  newUserSessionSchema,
  SESSION_MODES,
  type SessionMode,
  sessionUrlOf,
} from '../../domain/user-session';
import { userIdOf } from '../auth/plugin';
import { noContent, recordId, storedAt } from '../http/answer-schemas';
import { listAnswer, pagedOr, pageQuery } from '../http/pages';
import { idParams, noFieldsBody } from '../http/request-schemas';
import { USER_SESSIONS_ORDER } from './user-sessions-repository';

const sessionAnswer = z.object({
  id: recordId,
  userId: recordId,
  flowId: recordId.nullable(),
  executionId: recordId.nullable(),
  sessionName: z.string(),
  sessionData: z.object({ description: z.string().optional(), mode: z.enum(SESSION_MODES).optional() }),
  lastActiveAt: storedAt,
  createdAt: storedAt,
  /** The name of its flow, while that flow exists. */
  flowName: z.string().nullable(),
});

const loadAnswer = z.object({
  /** The page to reload into. */
  url: z.string(),
  flowId: recordId.nullable(),
  executionId: recordId.nullable(),
});

const modeOf = (stored: unknown, executionId: string | null): SessionMode =>
  (SESSION_MODES as readonly unknown[]).includes(stored)
    ? (stored as SessionMode)
    : defaultModeOf(executionId);

/**
 * Saved sessions: a named bookmark of the flow, execution and workspace mode the user was in. Loading one
 * marks it active and answers the URL the page reloads into.
 */
export const userSessionRoutes: FastifyPluginAsyncZod = async (app) => {
  const sessions = app.userSessions;

  app.get(
    '/api/user-sessions',
    { schema: { querystring: pageQuery, response: { 200: pagedOr(sessionAnswer) } } },
    async (request) =>
      listAnswer(request.query, USER_SESSIONS_ORDER, (page) => sessions.list(userIdOf(request), page)),
  );

  app.post(
    '/api/user-sessions',
    { schema: { body: newUserSessionSchema, response: { 201: sessionAnswer } } },
    async (request, reply) => {
      const userId = userIdOf(request);
      const input = request.body;
      const place = await sessions.workPlaceOf(userId, input);
      const sessionData = {
        ...(input.description ? { description: input.description } : {}),
        mode: input.mode ?? defaultModeOf(place.executionId),
      };
      return reply.status(201).send(await sessions.create(userId, place, input.sessionName, sessionData));
    },
  );

  app.delete(
    '/api/user-sessions/:id',
    { schema: { params: idParams, response: { 204: noContent } } },
    async (request, reply) => {
      await sessions.delete(request.params.id, userIdOf(request));
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/user-sessions/:id/load',
    { schema: { params: idParams, body: noFieldsBody, response: { 200: loadAnswer } } },
    async (request) => {
      const session = await sessions.load(request.params.id, userIdOf(request));
      // A session whose flow was deleted since still loads: into the flows list.
      const flowId = session.flowExists ? session.flowId : null;
      const executionId = flowId ? session.executionId : null;
      return { url: sessionUrlOf(flowId, modeOf(session.mode, executionId)), flowId, executionId };
    },
  );
};
