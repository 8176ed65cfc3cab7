import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { ruleViolated } from '../../domain/errors';
import { UNSTORABLE_TEXT_MESSAGE, unstorableTextPath } from '../../domain/storable-text';

export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PATH = '/api/docs';

/**
 * Routes declare their zod schemas once: they validate params, query and body, serialise the answer (so
 * nothing a query returns beyond the answer's shape reaches the client) and make the OpenAPI document,
 * served at /api/openapi.json and browsable at /api/docs. Registered before the routes, whose schemas
 * the document collects as they are added. Its UI is served from the package (no CDN) and loads only
 * its own scripts and styles, so the app's Content-Security-Policy holds for it as it is.
 */
async function routeSchemas(app: FastifyInstance) {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Before any schema: text PostgreSQL cannot store is refused for every route in this one place.
  app.addHook('preValidation', async (request) => {
    for (const part of ['params', 'query', 'body'] as const) {
      const path = unstorableTextPath(request[part]);
      if (path) throw ruleViolated(`${path.length > 0 ? path.join('.') : part}: ${UNSTORABLE_TEXT_MESSAGE}`);
    }
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Prompt flow workbench API',
        description:
          'Flows of AI prompt steps, their executions and results. Every call but sign-in needs the session cookie.',
        version: '0.1.0',
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: DOCS_PATH });

  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
}

export default fp(routeSchemas, { name: 'route-schemas', fastify: '5.x' });
