import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Sql } from 'postgres';
import { z } from 'zod';
import {
  defaultModeOf,
  type NewUserSession,
  SESSION_MODES,
  type SessionMode,
  newUserSessionSchema,
  sessionUrlOf,
} from '../../domain/user-session';
import { noContent, recordId, storedAt } from '../answer-schemas';
import { notFound } from '../../domain/errors';
import { userIdOf } from '../plugins/auth';
import { idParams, noFieldsBody } from '../request-schemas';

/** A session as its owner sees it, with the name of its flow while that flow exists. */
const selectSessions = (sql: Sql, userId: string) => sql<SessionRow[]>`
  SELECT s.id, s.user_id, s.flow_id, s.execution_id, s.session_name, s.session_data, s.last_active_at,
         s.created_at, f.name AS flow_name
  FROM user_sessions s LEFT JOIN flows f ON f.id = s.flow_id AND f.user_id = s.user_id
  WHERE s.user_id = ${userId}`;

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

type SessionRow = z.output<typeof sessionAnswer>;

const loadAnswer = z.object({
  /** The page to reload into. */
  url: z.string(),
  flowId: recordId.nullable(),
  executionId: recordId.nullable(),
});

interface WorkPlace {
  flowId: string | null;
  executionId: string | null;
}

/**
 * The flow and execution a new session keeps. Named ids must be the user's (404 otherwise); an execution
 * brings its flow, a flow its latest execution. With neither, it is what the user works on now: the
 * execution they started last, else the flow they changed last, else nothing (the flows list).
 */
async function workPlaceOf(sql: Sql, userId: string, input: NewUserSession): Promise<WorkPlace> {
  if (input.executionId) {
    const [execution] = await sql<{ id: string; flowId: string }[]>`
      SELECT e.id, e.flow_id FROM executions e JOIN flows f ON f.id = e.flow_id AND f.user_id = ${userId}
      WHERE e.id = ${input.executionId} AND e.user_id = ${userId}`;
    if (!execution || (input.flowId && execution.flowId !== input.flowId)) {
      throw notFound('Execution not found');
    }
    return { flowId: execution.flowId, executionId: execution.id };
  }
  if (input.flowId) {
    const [flow] = await sql<{ id: string; executionId: string | null }[]>`
      SELECT f.id, (SELECT e.id FROM executions e WHERE e.flow_id = f.id AND e.user_id = ${userId}
                    ORDER BY e.started_at DESC LIMIT 1) AS execution_id
      FROM flows f WHERE f.id = ${input.flowId} AND f.user_id = ${userId}`;
    if (!flow) throw notFound('Flow not found');
    return { flowId: flow.id, executionId: flow.executionId };
  }
  const [latest] = await sql<{ id: string; flowId: string }[]>`
    SELECT e.id, e.flow_id FROM executions e JOIN flows f ON f.id = e.flow_id AND f.user_id = ${userId}
    WHERE e.user_id = ${userId} ORDER BY e.started_at DESC LIMIT 1`;
  if (latest) return { flowId: latest.flowId, executionId: latest.id };
  const [flow] = await sql<{ id: string }[]>`
    SELECT id FROM flows WHERE user_id = ${userId} ORDER BY updated_at DESC, created_at DESC LIMIT 1`;
  return { flowId: flow?.id ?? null, executionId: null };
}

const modeOf = (stored: unknown, executionId: string | null): SessionMode =>
  (SESSION_MODES as readonly unknown[]).includes(stored)
    ? (stored as SessionMode)
    : defaultModeOf(executionId);

/**
 * Saved sessions: a named bookmark of the flow, execution and workspace mode the user was in. Loading one
 * marks it active and answers the URL the page reloads into.
 */
export const userSessionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { sql } = app;

  app.get(
    '/api/user-sessions',
    { schema: { response: { 200: z.array(sessionAnswer) } } },
    async (request) => {
      const userId = userIdOf(request);
      return sql<
        SessionRow[]
      >`${selectSessions(sql, userId)} ORDER BY s.last_active_at DESC, s.created_at DESC`;
    },
  );

  app.post(
    '/api/user-sessions',
    { schema: { body: newUserSessionSchema, response: { 201: sessionAnswer } } },
    async (request, reply) => {
      const userId = userIdOf(request);
      const input = request.body;
      const place = await workPlaceOf(sql, userId, input);
      const sessionData = {
        ...(input.description ? { description: input.description } : {}),
        mode: input.mode ?? defaultModeOf(place.executionId),
      };
      const [created] = await sql<{ id: string }[]>`
      INSERT INTO user_sessions (user_id, flow_id, execution_id, session_name, session_data)
      VALUES (${userId}, ${place.flowId}, ${place.executionId}, ${input.sessionName}, ${sql.json(sessionData)})
      RETURNING id`;
      const [session] = await sql<SessionRow[]>`${selectSessions(sql, userId)} AND s.id = ${created!.id}`;
      return reply.status(201).send(session!);
    },
  );

  app.delete(
    '/api/user-sessions/:id',
    { schema: { params: idParams, response: { 204: noContent } } },
    async (request, reply) => {
      const { id } = request.params;
      const deleted = await sql`
      DELETE FROM user_sessions WHERE id = ${id} AND user_id = ${userIdOf(request)} RETURNING id`;
      if (deleted.length === 0) throw notFound('Session not found');
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/user-sessions/:id/load',
    { schema: { params: idParams, body: noFieldsBody, response: { 200: loadAnswer } } },
    async (request) => {
      const { id } = request.params;
      const userId = userIdOf(request);
      const [session] = await sql<
        { flowId: string | null; executionId: string | null; mode: unknown; flowExists: boolean }[]
      >`
      UPDATE user_sessions s SET last_active_at = now()
      WHERE s.id = ${id} AND s.user_id = ${userId}
      RETURNING s.flow_id, s.execution_id, s.session_data->>'mode' AS mode,
                EXISTS (SELECT 1 FROM flows f WHERE f.id = s.flow_id AND f.user_id = s.user_id) AS flow_exists`;
      if (!session) throw notFound('Session not found');
      // A session whose flow was deleted since still loads: into the flows list.
      const flowId = session.flowExists ? session.flowId : null;
      const executionId = flowId ? session.executionId : null;
      return { url: sessionUrlOf(flowId, modeOf(session.mode, executionId)), flowId, executionId };
    },
  );
};
