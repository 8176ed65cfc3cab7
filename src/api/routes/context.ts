import type { FastifyInstance } from 'fastify';
import { userNotesSchema } from '../../domain/conversation-context';
import { readConversationContext } from '../conversation-context';
import { HttpError, notFound } from '../errors';
import { userIdOf } from '../plugins/auth';
import { flowIdParams } from '../request-schemas';

/**
 * A flow's AI conversation context. GET answers for every flow of the user (id null until notes are
 * first saved); POST creates the context with the user's notes, PATCH changes them.
 */
export async function contextRoutes(app: FastifyInstance) {
  const { sql } = app;

  app.get('/api/flows/:flowId/context', async (request) => {
    const { flowId } = flowIdParams.parse(request.params);
    return readConversationContext(sql, flowId, userIdOf(request));
  });

  app.post('/api/flows/:flowId/context', async (request, reply) => {
    const { flowId } = flowIdParams.parse(request.params);
    const { userNotes } = userNotesSchema.parse(request.body);
    const userId = userIdOf(request);
    const created = await sql`
      INSERT INTO ai_conversation_context (user_id, flow_id, user_notes)
      SELECT ${userId}, f.id, ${userNotes} FROM flows f WHERE f.id = ${flowId} AND f.user_id = ${userId}
      ON CONFLICT (flow_id) DO NOTHING
      RETURNING id`;
    if (created.length === 0) {
      await app.flows.owned(flowId, userId);
      throw new HttpError(409, 'Conversation context already exists');
    }
    return reply.status(201).send(await readConversationContext(sql, flowId, userId));
  });

  app.patch('/api/flows/:flowId/context', async (request) => {
    const { flowId } = flowIdParams.parse(request.params);
    const { userNotes } = userNotesSchema.parse(request.body);
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
  });
}
