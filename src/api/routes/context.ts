import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type ConversationContextView, userNotesSchema } from '../../domain/conversation-context';
import { noContent, recordId } from '../answer-schemas';
import { readConversationContext } from '../conversation-context';
import { conflict, notFound } from '../../domain/errors';
import { userIdOf } from '../plugins/auth';
import { flowIdParams } from '../request-schemas';

const contextAnswer = z.object({
  /** null until the user first saves notes. */
  id: recordId.nullable(),
  flowId: recordId,
  conversationHistory: z.string(),
  rejectedIdeas: z.string(),
  userNotes: z.string(),
  version: z.int(),
  lastUpdated: z.string().nullable(),
  createdAt: z.string().nullable(),
}) satisfies z.ZodType<ConversationContextView>;

/**
 * A flow's AI conversation context. GET answers for every flow of the user (id null until notes are
 * first saved); POST creates the context with the user's notes, PATCH changes them.
 */
export const contextRoutes: FastifyPluginAsyncZod = async (app) => {
  const { sql } = app;

  app.get(
    '/api/flows/:flowId/context',
    { schema: { params: flowIdParams, response: { 200: contextAnswer } } },
    async (request) => readConversationContext(sql, request.params.flowId, userIdOf(request)),
  );

  app.post(
    '/api/flows/:flowId/context',
    { schema: { params: flowIdParams, body: userNotesSchema, response: { 201: contextAnswer } } },
    async (request, reply) => {
      const { flowId } = request.params;
      const { userNotes } = request.body;
      const userId = userIdOf(request);
      const created = await sql`
        INSERT INTO ai_conversation_context (user_id, flow_id, user_notes)
        SELECT ${userId}, f.id, ${userNotes} FROM flows f WHERE f.id = ${flowId} AND f.user_id = ${userId}
        ON CONFLICT (flow_id) DO NOTHING
        RETURNING id`;
      if (created.length === 0) {
        await app.flows.owned(flowId, userId);
        throw conflict('Conversation context already exists');
      }
      return reply.status(201).send(await readConversationContext(sql, flowId, userId));
    },
  );

  app.patch(
    '/api/flows/:flowId/context',
    { schema: { params: flowIdParams, body: userNotesSchema, response: { 200: contextAnswer } } },
    async (request) => {
      const { flowId } = request.params;
      const { userNotes } = request.body;
      const userId = userIdOf(request);
      const updated = await sql`
        UPDATE ai_conversation_context c
        SET user_notes = ${userNotes}, version = c.version + 1, last_updated = now()
        FROM flows f
        WHERE c.flow_id = ${flowId} AND f.id = c.flow_id AND f.user_id = ${userId}
        RETURNING c.id`;
      if (updated.length === 0) {
        await app.flows.owned(flowId, userId);
        throw notFound('Conversation context not found');
      }
      return readConversationContext(sql, flowId, userId);
    },
  );

  app.delete(
    '/api/flows/:flowId/context/rejected-ideas',
    { schema: { params: flowIdParams, response: { 204: noContent } } },
    async (request, reply) => {
      await app.flows.clearRejectedIdeas(request.params.flowId, userIdOf(request));
      return reply.status(204).send();
    },
  );
};
