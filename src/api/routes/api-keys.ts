import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { noContent, recordId, storedAt } from '../answer-schemas';
import { newApiKeySchema } from '../../domain/api-key';
import { notFound } from '../../domain/errors';
import { createOwnKeyCipher } from '../own-key-cipher';
import { userIdOf } from '../plugins/auth';
import { idParams } from '../request-schemas';
import { readUsage } from '../usage-standing';

/** What a key looks like to its owner: never the key itself, not even part of it. */
const LISTED_COLUMNS = 'id, key_name, key_type, is_active, created_at, last_used';
const listedKey = z.object({
  id: recordId,
  keyName: z.string(),
  keyType: z.string(),
  isActive: z.boolean(),
  createdAt: storedAt,
  lastUsed: storedAt.nullable(),
});
type ListedKey = z.output<typeof listedKey>;

const usageAnswer = z.object({
  /** -1: unlimited (an own active key). */
  remainingSteps: z.int(),
  usedSteps: z.int(),
});

export const apiKeyRoutes: FastifyPluginAsyncZod = async (app) => {
  const { sql } = app;
  const cipher = createOwnKeyCipher(app.config.appSecret);

  app.get('/api/user/api-keys', { schema: { response: { 200: z.array(listedKey) } } }, async (request) => {
    return sql<ListedKey[]>`
      SELECT ${sql.unsafe(LISTED_COLUMNS)} FROM user_api_keys
      WHERE user_id = ${userIdOf(request)} ORDER BY created_at DESC, id DESC`;
  });

  app.post(
    '/api/user/api-keys',
    { schema: { body: newApiKeySchema, response: { 201: listedKey } } },
    async (request, reply) => {
      const userId = userIdOf(request);
      const input = request.body;
      const [key] = await sql<ListedKey[]>`
      INSERT INTO user_api_keys (user_id, key_name, encrypted_api_key, key_type)
      VALUES (${userId}, ${input.keyName}, ${cipher.encrypt(input.apiKey)}, ${input.keyType})
      RETURNING ${sql.unsafe(LISTED_COLUMNS)}`;
      return reply.status(201).send(key!);
    },
  );

  app.delete(
    '/api/user/api-keys/:id',
    { schema: { params: idParams, response: { 204: noContent } } },
    async (request, reply) => {
      const { id } = request.params;
      const deleted = await sql`
      DELETE FROM user_api_keys WHERE id = ${id} AND user_id = ${userIdOf(request)} RETURNING id`;
      if (deleted.length === 0) throw notFound('API key not found');
      return reply.status(204).send();
    },
  );

  app.get('/api/user/usage', { schema: { response: { 200: usageAnswer } } }, async (request) =>
    readUsage(sql, userIdOf(request), app.config.freeStepAllowance),
  );
};
