import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { userIdOf } from '../auth/plugin';
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

/** The models a step may name: the default first. */
export const modelRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/models', { schema: { response: { 200: z.array(modelAnswer) } } }, async (request) =>
    app.models.catalog.list(await app.models.ownKeys(userIdOf(request))),
  );
};
