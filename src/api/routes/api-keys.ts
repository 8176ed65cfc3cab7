import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { newApiKeySchema } from '../../domain/api-key';
import { noContent, recordId, storedAt } from '../answer-schemas';
import { userIdOf } from '../plugins/auth';
import { idParams } from '../request-schemas';

/** What a key looks like to its owner: never the key itself, not even part of it. */
const listedKey = z.object({
  id: recordId,
  keyName: z.string(),
  keyType: z.string(),
  isActive: z.boolean(),
  createdAt: storedAt,
  lastUsed: storedAt.nullable(),
});

const usageAnswer = z.object({
  /** -1: unlimited (an own active key). */
  remainingSteps: z.int(),
  usedSteps: z.int(),
});

export const apiKeyRoutes: FastifyPluginAsyncZod = async (app) => {
  const keys = app.apiKeys;

  app.get('/api/user/api-keys', { schema: { response: { 200: z.array(listedKey) } } }, async (request) =>
    keys.list(userIdOf(request)),
  );

  app.post(
    '/api/user/api-keys',
    { schema: { body: newApiKeySchema, response: { 201: listedKey } } },
    async (request, reply) => reply.status(201).send(await keys.add(userIdOf(request), request.body)),
  );

  app.delete(
    '/api/user/api-keys/:id',
    { schema: { params: idParams, response: { 204: noContent } } },
    async (request, reply) => {
      await keys.delete(request.params.id, userIdOf(request));
      return reply.status(204).send();
    },
  );

  app.get('/api/user/usage', { schema: { response: { 200: usageAnswer } } }, async (request) =>
    keys.usage(userIdOf(request)),
  );
};
