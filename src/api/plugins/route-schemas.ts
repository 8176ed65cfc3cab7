import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ruleViolated } from '../../domain/errors';
import { tooLarge } from '../../domain/limits';
import { findText, UNSTORABLE_TEXT_MESSAGE, unstorableTextPath } from '../../domain/storable-text';
import { PROBLEM_CODES } from '../errors';
import { takesIdempotencyKey } from '../idempotency/keyed-writes';
import { OPERATIONS, TAGS } from '../operations';
import { idempotencyKeyHeader } from '../request-schemas';
import { PUBLIC_API_PATHS, SESSION_COOKIE } from './auth';

export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PATH = '/api/docs';

/** Every error answer (application/problem+json): documented on every operation, as 4XX and 5XX. */
export const problemAnswer = z
  .object({
    type: z.string().describe('A URN naming the code: urn:workbench:problem:<code>'),
    title: z.string().describe("The code's short, fixed summary"),
    status: z.int(),
    detail: z.string().describe('What went wrong this time, in words a user can act on'),
    code: z.enum(PROBLEM_CODES as [string, ...string[]]),
    message: z.string().describe('The same text as detail'),
    retryable: z.literal(true).optional().describe('Sending the same request again may pass'),
    issues: z
      .array(
        z.looseObject({
          code: z.string(),
          path: z.array(z.union([z.string(), z.number()])),
          message: z.string(),
        }),
      )
      .optional()
      .describe('For malformed input: each problem with where it is'),
  })
  .describe('A problem (RFC 9457)');

/** The headers of a write: its Idempotency-Key; every other header passes as it came. */
const idempotencyKeyHeaders = z.looseObject({ 'idempotency-key': idempotencyKeyHeader });

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
  // Before any schema, for every route in this one place: text PostgreSQL cannot store is refused (400),
  // and so is any one text longer than MAX_TEXT_CHARS (413), with the field it is in.
  const { limits } = app.config;
  const overLong = (text: string) => text.length > limits.maxTextChars;
  app.addHook('preValidation', async (request) => {
    for (const part of ['params', 'query', 'body'] as const) {
      const where = (path: (string | number)[]) => (path.length > 0 ? path.join('.') : part);
      const unstorable = unstorableTextPath(request[part]);
      if (unstorable) throw ruleViolated(`${where(unstorable)}: ${UNSTORABLE_TEXT_MESSAGE}`);
      const long = findText(request[part], overLong);
      if (long) throw tooLarge(where(long.path), long.text.length, 'maxTextChars', limits);
    }
  });

  // Every documented operation answers its errors as problems: the document says so, and the answer is
  // checked against it like any other.
  app.addHook('onRoute', (route) => {
    if (!route.schema || route.schema.hide) return;
    const named = OPERATIONS[`${route.method} ${route.url}`];
    // Open to anyone: the health checks, sign-in and sign-up, and this document.
    if (!route.url.startsWith('/api/') || PUBLIC_API_PATHS.has(route.url)) route.schema.security = [];
    if (named) {
      route.schema.operationId = named.operationId;
      route.schema.summary = named.summary;
      route.schema.tags = [named.tag];
    }
    // Every write of a signed-in user may name itself (see the idempotency plugin).
    if (takesIdempotencyKey(route.method, route.url)) route.schema.headers ??= idempotencyKeyHeaders;
    route.schema.response = {
      ...(route.schema.response as object | undefined),
      '4XX': problemAnswer,
      '5XX': problemAnswer,
    };
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
      tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
      servers: [{ url: '/', description: 'This server' }],
      components: {
        securitySchemes: {
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: SESSION_COOKIE,
            description:
              'The session cookie sign-in sets. A call that changes anything and carries an Origin header must come from this origin (403 otherwise).',
          },
        },
      },
      security: [{ session: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: DOCS_PATH });

  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
}

export default fp(routeSchemas, { name: 'route-schemas', fastify: '5.x' });
