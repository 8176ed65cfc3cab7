import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { KeyCheck } from '../../ai';
import {
  API_KEY_TYPE_LABELS,
  API_KEY_TYPES,
  type ApiKeyType,
  keyEndpoint,
  keyRejected,
  keyUnchecked,
  newApiKeySchema,
} from '../../domain/api-key';
import { ruleViolated } from '../../domain/errors';
import { userIdOf } from '../auth/plugin';
import { noContent, recordId, storedAt } from '../http/answer-schemas';
import { type ListOrder, listAnswerInMemory, pagedOr, pageQuery, timeKey } from '../http/pages';
import { idParams } from '../http/request-schemas';

/** What a key looks like to its owner: never the key itself, not even part of it. */
const listedKey = z.object({
  id: recordId,
  keyName: z.string(),
  keyType: z.enum(API_KEY_TYPES),
  baseUrl: z.string().nullable().describe("openai-compatible: the key's endpoint; null for the other types"),
  isActive: z.boolean(),
  checkStatus: z
    .enum(['accepted', 'unchecked', 'rejected'])
    .describe(
      'Whether its provider took it: unchecked when it could not be asked as the key was saved (it is asked at the first use of the key); rejected when it refused it then (the key is no longer used, isActive false)',
    ),
  createdAt: storedAt,
  lastUsed: storedAt.nullable(),
});

/** A key just saved, and what its provider said of it. */
const addedKey = listedKey.extend({
  check: z
    .object({
      outcome: z.enum(['accepted', 'unchecked']),
      message: z.string().nullable().describe('unchecked: why the provider could not be asked'),
    })
    .describe('What the provider said of the key when it was saved (a key it refuses is not saved: 400)'),
});

const keyCheckAnswer = (check: KeyCheck, keyType: ApiKeyType) =>
  check.outcome === 'accepted'
    ? { outcome: 'accepted' as const, message: null }
    : { outcome: 'unchecked' as const, message: keyUnchecked(API_KEY_TYPE_LABELS[keyType], check.reason) };

const usageAnswer = z.object({
  /** -1: unlimited (an own active key answers the server's default model). */
  remainingSteps: z.int(),
  usedSteps: z.int(),
});

/** A user's own keys, newest first (a handful: read whole, paged in memory). */
const OWN_KEYS_ORDER: ListOrder = {
  list: 'own-keys',
  keys: [
    { sql: 'created_at', order: 'desc', type: 'timestamptz' },
    { sql: 'id', order: 'desc', type: 'uuid' },
  ],
};

export const apiKeyRoutes: FastifyPluginAsyncZod = async (app) => {
  const keys = app.apiKeys;

  app.get(
    '/api/user/api-keys',
    { schema: { querystring: pageQuery, response: { 200: pagedOr(listedKey) } } },
    async (request) =>
      listAnswerInMemory(request.query, OWN_KEYS_ORDER, await keys.list(userIdOf(request)), (key) => [
        timeKey(key.createdAt),
        key.id,
      ]),
  );

  app.post(
    '/api/user/api-keys',
    { schema: { body: newApiKeySchema, response: { 201: addedKey } } },
    async (request, reply) => {
      // An endpoint the server may not call is refused before anything is asked of it (400).
      const body = { ...request.body, baseUrl: keyEndpoint(request.body, app.config.modelEndpointHosts) };
      // Asked of the provider first: a key it refuses is not saved; one it cannot be asked about is.
      const check = await app.models.checkKey(body);
      const provider = API_KEY_TYPE_LABELS[body.keyType];
      if (check.outcome === 'rejected') throw ruleViolated(keyRejected(provider, check.reason));
      // One the provider could not be asked about is saved unchecked, and asked about at its first use.
      const key = await keys.add(
        userIdOf(request),
        body,
        check.outcome === 'accepted' ? 'accepted' : 'unchecked',
      );
      return reply.status(201).send({ ...key, check: keyCheckAnswer(check, body.keyType) });
    },
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
    keys.usage(userIdOf(request), await app.models.defaultKeyTypes()),
  );
};
