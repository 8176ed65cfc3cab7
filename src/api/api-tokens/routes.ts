import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_TOKEN_SCOPES, newApiTokenSchema } from '../../domain/api-token';
import { userIdOf } from '../auth/plugin';
import { noContent, recordId, storedAt } from '../http/answer-schemas';
import { idParams } from '../http/request-schemas';

/** A token as its maker sees it: never the token itself. */
const listedToken = z.object({
  id: recordId,
  name: z.string(),
  scopes: z.array(z.enum(API_TOKEN_SCOPES)),
  workspaceId: recordId.nullable().describe('The one workspace the token acts in; null: a personal token'),
  workspaceName: z.string().nullable().describe("The workspace's name, while you are a member"),
  createdAt: storedAt,
  expiresAt: storedAt,
  lastUsedAt: storedAt.nullable(),
  lastUsedFrom: z.string().nullable().describe('The address the token was last used from'),
});

const madeToken = listedToken.extend({
  token: z.string().describe('The token itself (wb_pat_…), shown this once: only its hash is kept'),
});

/**
 * The signed-in user's API tokens: made, listed and revoked with the session cookie only (OPERATION_SCOPES
 * says `session`): a token cannot make or see others.
 */
export const apiTokenRoutes: FastifyPluginAsyncZod = async (app) => {
  const tokens = app.apiTokens;

  app.get('/api/user/tokens', { schema: { response: { 200: z.array(listedToken) } } }, async (request) =>
    tokens.list(userIdOf(request)),
  );

  app.post(
    '/api/user/tokens',
    { schema: { body: newApiTokenSchema, response: { 201: madeToken } } },
    async (request, reply) => {
      const userId = userIdOf(request);
      const { workspaceId } = request.body;
      // A workspace one is not a member of is missing, like any record of it.
      if (workspaceId) await app.commands.requireIn(workspaceId, userId, 'read', 'workspace');
      return reply.status(201).send(await tokens.create(userId, request.body));
    },
  );

  app.delete(
    '/api/user/tokens/:id',
    { schema: { params: idParams, response: { 204: noContent } } },
    async (request, reply) => {
      await tokens.revoke(request.params.id, userIdOf(request));
      return reply.status(204).send();
    },
  );
};
