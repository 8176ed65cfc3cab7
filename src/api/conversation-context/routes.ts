import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type ConversationContextView, userNotesSchema } from '../../domain/conversation-context';
import { userIdOf } from '../auth/plugin';
import { noContent, recordId } from '../http/answer-schemas';
import { flowIdParams } from '../http/request-schemas';

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
  const contexts = app.conversationContexts;

  app.get(
    '/api/flows/:flowId/context',
    { schema: { params: flowIdParams, response: { 200: contextAnswer } } },
    async (request) => contexts.read(request.params.flowId, userIdOf(request)),
  );

  app.post(
    '/api/flows/:flowId/context',
    { schema: { params: flowIdParams, body: userNotesSchema, response: { 201: contextAnswer } } },
    async (request, reply) => {
      const created = await contexts.create(request.params.flowId, userIdOf(request), request.body.userNotes);
      return reply.status(201).send(created);
    },
  );

  app.patch(
    '/api/flows/:flowId/context',
    { schema: { params: flowIdParams, body: userNotesSchema, response: { 200: contextAnswer } } },
    async (request) => contexts.changeNotes(request.params.flowId, userIdOf(request), request.body.userNotes),
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
