import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { userIdOf } from '../auth/plugin';
import { listAnswerInMemory, pagedOr, pageQuery, positionOrder } from '../http/pages';
import { PROVIDERS } from './model-catalog';

const modelAnswer = z
  .object({
    id: z.string().describe('provider:name, what a step names as its model'),
    provider: z.enum(PROVIDERS),
    name: z.string(),
    capabilities: z.object({
      streaming: z.boolean(),
      structuredOutput: z
        .boolean()
        .nullable()
        .describe(
          "Whether the model's API holds a structured answer to its JSON schema: probed once per model on an " +
            'OpenAI-compatible endpoint (null until then), false where the schema is only an instruction. ' +
            'Either way the answer is checked and asked for again when it does not fit.',
        ),
    }),
    source: z
      .enum(['server', 'own key'])
      .describe("own key: answered with the user's own key of that provider (the newest active one)"),
  })
  .meta({ id: 'Model' });

/** The models, in the catalog's order (the server's configuration and the user's own keys): by position. */
const MODELS_ORDER = positionOrder('models');

/** The models a step may name: the default first. */
export const modelRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/models',
    { schema: { querystring: pageQuery, response: { 200: pagedOr(modelAnswer) } } },
    async (request) =>
      listAnswerInMemory(
        request.query,
        MODELS_ORDER,
        await app.models.catalog.list(await app.models.ownKeys(userIdOf(request))),
        (_model, index) => [index + 1],
      ),
  );
};
