import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ruleViolated } from '../../domain/errors';
import { tooLarge } from '../../domain/limits';
import {
  findText,
  isStorableText,
  UNSTORABLE_TEXT_MESSAGE,
  unstorableTextPath,
} from '../../domain/storable-text';
import { scopeNeeded } from '../access';
import { PUBLIC_API_PATHS, SESSION_COOKIE } from '../auth/plugin';
import { takesIdempotencyKey } from '../idempotency/keyed-writes';
import { PROBLEM_CODES } from './errors';
import { type EntityTagUse, OPERATIONS, TAGS } from './operations';
import { writeHeaders } from './request-schemas';

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
    currentVersion: z
      .int()
      .optional()
      .describe("On version_mismatch (412): the record's current version, its ETag unquoted"),
  })
  .describe('A problem (RFC 9457)')
  .meta({ id: 'Problem' });

/** An error answer as every operation documents it: the problem, as `application/problem+json`. */
const problemResponse = {
  description: 'A problem (RFC 9457)',
  content: { 'application/problem+json': { schema: problemAnswer } },
};

/** A signed-out browser opening a page of the API (Accept: text/html) is sent to sign in, and back. */
const toSignIn = z
  .undefined()
  .describe('Signed out, a browser (Accept: text/html) goes to the sign-in page named in Location, and back');

/** A GET whose If-None-Match named the current tag: the client's copy stands. */
const notModifiedAnswer = z.undefined().describe('Not modified: the copy If-None-Match names is current');
const versionMismatchAnswer = {
  description:
    "The record is not at the version If-Match names (code version_mismatch, with the record's currentVersion); nothing was changed",
  content: { 'application/problem+json': { schema: problemAnswer } },
};

const ETAG_HEADER = {
  type: 'string',
  description: "The record's version as a strong entity tag, e.g. \"7\" (a step's is its flow's version)",
};
/** The condition headers, as the document shows them: the routes read them themselves (entity-tags.ts). */
const CONDITION_HEADERS = {
  read: {
    'If-None-Match': {
      type: 'string',
      description: 'Entity tags of copies the client holds, or *: when one is current the answer is 304',
    },
  },
  write: {
    'If-Match': {
      type: 'string',
      description:
        'The entity tag of the version the change is made on, or *: when the record is at another version the answer is 412 and nothing changes. Without it the change is made on whatever version is current.',
    },
  },
} as const;

/** The operation's conditional request headers and its answers' ETag, added to its documentation. */
function documentEntityTags<T extends { schema: unknown }>(transformed: T, use: EntityTagUse | undefined): T {
  if (!use) return transformed;
  const schema = transformed.schema as {
    headers?: { properties?: object };
    response?: Record<string, object>;
  };
  // Beside the headers the route declares (a write's Idempotency-Key).
  schema.headers = {
    ...schema.headers,
    type: 'object',
    properties: { ...schema.headers?.properties, ...CONDITION_HEADERS[use === 'read' ? 'read' : 'write'] },
  } as typeof schema.headers;
  if (use === 'delete') return transformed;
  for (const [status, answer] of Object.entries(schema.response ?? {})) {
    if (/^(2\d\d|304)$/.test(status))
      schema.response![status] = { ...answer, headers: { ETag: ETAG_HEADER } };
  }
  return transformed;
}

/**
 * The headers a rate-limited operation answers with (@fastify/rate-limit's), as the route's JSON schema of
 * headers names them: the swagger plugin wraps each one's schema into the document's header object
 * (`{schema, description}`) itself, as it does `ETag` and `retry-after`.
 */
const RATE_LIMIT_HEADERS = {
  'x-ratelimit-limit': { type: 'integer', description: 'How many calls the limit allows a window' },
  'x-ratelimit-remaining': { type: 'integer', description: 'How many are left in this window' },
  'x-ratelimit-reset': { type: 'integer', description: 'Seconds until the window starts over' },
};

/** A rate-limited operation's limit headers, and its 429 with `Retry-After`, added to its documentation. */
function documentRateLimit<T extends { schema: unknown }>(transformed: T, limited: boolean): T {
  if (!limited) return transformed;
  const schema = transformed.schema as { response?: Record<string, { headers?: object }> };
  for (const [status, answer] of Object.entries(schema.response ?? {})) {
    if (/^2\d\d$/.test(status)) answer.headers = { ...answer.headers, ...RATE_LIMIT_HEADERS };
  }
  schema.response = {
    ...schema.response,
    429: {
      description:
        'Over the rate limit (code model_call_rate_limited, sign_in_rate_limited, or over_limit for invitations)',
      headers: {
        ...RATE_LIMIT_HEADERS,
        'retry-after': { type: 'integer', description: 'Seconds to wait before trying again' },
      },
      content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
    } as { headers?: object },
  };
  return transformed;
}

/**
 * A body that may be left out (a command with no fields: `noFieldsBody`, which takes no body or `{}`) is
 * documented as optional, and as its object alone: the swagger plugin marks every body required, and the
 * schema's `null` (how a missing body reaches validation) is not a body a client may send.
 */
function withOptionalBodies<T>(document: T): T {
  const paths = (document as { paths?: Record<string, Record<string, unknown>> }).paths ?? {};
  for (const operation of Object.values(paths).flatMap((methods) => Object.values(methods))) {
    const body = (operation as { requestBody?: { required?: boolean; content?: Record<string, unknown> } })
      .requestBody;
    const schema = body?.content?.['application/json'] as
      | { schema?: Record<string, unknown> & { anyOf?: { type?: string }[] } }
      | undefined;
    const options = schema?.schema?.anyOf;
    if (!body || !schema?.schema || !options?.some((option) => option.type === 'null')) continue;
    body.required = false;
    // Left out, not null: a body that is the JSON null is refused (400, see `nullBody`).
    const rest = options.filter((option) => option.type !== 'null');
    if (rest.length === 1) {
      const { anyOf: _, ...others } = schema.schema;
      schema.schema = { ...others, ...rest[0] };
    } else schema.schema.anyOf = rest;
  }
  return document;
}

/**
 * The document without the named schemas nothing refers to: each named shape is made for answers and for
 * input alike (`FlowInput` beside `Flow`), and most are only ever answered.
 */
function withoutUnusedSchemas<T>(document: T): T {
  const schemas = (document as { components?: { schemas?: Record<string, unknown> } }).components?.schemas;
  if (!schemas) return document;
  for (let removed = true; removed; ) {
    removed = false;
    const text = JSON.stringify(document);
    for (const name of Object.keys(schemas)) {
      if (!text.includes(`"#/components/schemas/${name}"`)) {
        delete schemas[name];
        removed = true;
      }
    }
  }
  return document;
}

/**
 * The named schemas (components.schemas) in the order the document lists them, the order the web app's types
 * were generated in (src/web/lib/api-schema.ts). Left to itself the document lists them in the order zod's
 * registry met their `.meta({ id })`, that is the order their modules first ran, which follows where each
 * module sits in src/api: fixed here, moving a module leaves the document as it is. A schema not named here
 * comes after these, in the registry's order.
 */
const SCHEMA_ORDER = [
  'WebhookEventTypeInput',
  'WorkspaceRoleInput',
  'Flow',
  'StepReview',
  'StepSnapshot',
  'Step',
  'StepResult',
  'UnreviewedResultUse',
  'StepRun',
  'ReviewApproval',
  'Review',
  'ListedExecution',
  'Execution',
  'StepRunOutcome',
  'StepRunSummary',
  'Problem',
  'HistoryEvent',
  'WorkspaceExecution',
  'ReviewAudit',
  'RecordCheck',
  'AuditEntry',
  'AuditTrail',
  'MasterRow',
  'MasterSession',
  'Model',
  'InboxReview',
  'WebhookEventType',
  'Webhook',
  'NewWebhook',
  'WebhookDelivery',
  'WorkspaceRole',
  'Workspace',
  'WorkspaceMember',
  'Invitation',
  'PendingInvitation',
  'AcceptedInvitation',
  'InvitationPreview',
];

/** The document with its named schemas in SCHEMA_ORDER. */
function inSchemaOrder<T>(document: T): T {
  const components = (document as { components?: { schemas?: Record<string, unknown> } }).components;
  if (!components?.schemas) return document;
  const rank = (name: string) => {
    const index = SCHEMA_ORDER.indexOf(name);
    return index === -1 ? SCHEMA_ORDER.length : index;
  };
  components.schemas = Object.fromEntries(
    Object.entries(components.schemas).sort(([a], [b]) => rank(a) - rank(b)),
  );
  return document;
}

/** Who may call an operation: the session, and a token with the scope it needs unless it is session-only. */
function securityOf(method: string | string[], url: string): Record<string, string[]>[] {
  const scope = scopeNeeded([method].flat()[0]!, url);
  if (scope === 'session' || scope === undefined) return [{ session: [] }];
  return [{ session: [] }, { bearer: scope === 'public' ? [] : [scope] }];
}

/**
 * Whether the request came with a body: a request without one reaches validation with a null body too, as
 * one whose body is the JSON `null`.
 */
function carriesBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

/**
 * A body that is the JSON `null`: never an object a route takes. Routes whose body may be left out (a command
 * with no fields, a run with no input, an edit of no field) take no body at all, or `{}`; a `null` sent is
 * malformed input (400), as it is where a body is required, not read as "no fields".
 */
const nullBody = () =>
  new z.ZodError([
    {
      code: 'invalid_type',
      expected: 'object',
      path: [],
      input: null,
      message:
        'Nội dung request phải là một object JSON, không phải null; để trống nếu không gửi trường nào.',
    },
  ]);

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
    if (request.body === null && carriesBody(request)) throw nullBody();
    for (const part of ['params', 'query', 'body'] as const) {
      const where = (path: (string | number)[]) => (path.length > 0 ? path.join('.') : part);
      // One walk finds either; an unstorable text anywhere in the part is told before an over-long one.
      const bad = findText(request[part], (text) => overLong(text) || !isStorableText(text));
      if (!bad) continue;
      const unstorable = isStorableText(bad.text) ? unstorableTextPath(request[part]) : bad.path;
      if (unstorable) throw ruleViolated(`${where(unstorable)}: ${UNSTORABLE_TEXT_MESSAGE}`);
      throw tooLarge(where(bad.path), bad.text.length, 'maxTextChars', limits);
    }
  });

  // Every documented operation answers its errors as problems: the document says so, and the answer is
  // checked against it like any other.
  app.addHook('onRoute', (route) => {
    if (!route.schema || route.schema.hide) return;
    const named = OPERATIONS[`${route.method} ${route.url}`];
    // Open to anyone: the health checks, sign-in and sign-up, and this document.
    const open = !route.url.startsWith('/api/') || PUBLIC_API_PATHS.has(route.url);
    if (open) route.schema.security = [];
    else route.schema.security = securityOf(route.method, route.url);
    const reads = [route.method].flat().includes('GET');
    if (named) {
      route.schema.operationId = named.operationId;
      route.schema.summary = named.summary;
      route.schema.tags = [named.tag];
    }
    // Every write of a signed-in user may name itself (see the idempotency plugin).
    if (takesIdempotencyKey(route.method, route.url)) route.schema.headers ??= writeHeaders;
    route.schema.response = {
      ...(route.schema.response as object | undefined),
      ...(reads && !open ? { 303: toSignIn } : {}),
      ...(named?.entityTag === 'read' ? { 304: notModifiedAnswer } : {}),
      ...(named?.entityTag === 'write' || named?.entityTag === 'delete'
        ? { 412: versionMismatchAnswer }
        : {}),
      '4XX': problemResponse,
      '5XX': problemResponse,
    };
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Prompt flow workbench API',
        description:
          'Flows of AI prompt steps, their executions and results. Every call but sign-in needs the session cookie or an API token (Authorization: Bearer).',
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
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description:
              "An API token (wb_pat_…) made on the tokens screen or with POST /api/user/tokens: Authorization: Bearer <token>. Each operation's security names the scope it needs (read, run, review, write, admin); a token without it is answered 403 insufficient_scope. A malformed, unknown, revoked or expired token is answered 401.",
          },
        },
      },
      security: [{ session: [] }, { bearer: [] }],
    },
    // The shapes named with `.meta({ id })` (Flow, Step, Execution, HistoryEvent, …) become
    // components.schemas, referred to wherever an operation uses them.
    transformObject: (input) =>
      inSchemaOrder(withOptionalBodies(withoutUnusedSchemas(jsonSchemaTransformObject(input)))),
    transform: (document) =>
      documentRateLimit(
        documentEntityTags(
          withBodyPerContentType(document),
          OPERATIONS[`${document.route.method} ${document.url}`]?.entityTag,
        ),
        Boolean((document.route.config as { rateLimit?: unknown } | undefined)?.rateLimit),
      ),
  });
  await app.register(swaggerUi, { routePrefix: DOCS_PATH });

  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
}

type SchemaDocument = Parameters<typeof jsonSchemaTransform>[0];

/**
 * The document of a route whose body differs by content type (`body: {content: {<type>: {schema}}}`, as
 * Fastify validates it): each type's schema made JSON Schema on its own, where the transform of zod schemas
 * takes one body schema only.
 */
function withBodyPerContentType(document: SchemaDocument) {
  const body = (document.schema as { body?: unknown } | undefined)?.body;
  if (typeof body !== 'object' || body === null || !('content' in body)) return jsonSchemaTransform(document);
  const { body: _body, ...others } = document.schema as Record<string, unknown>;
  const transformed = jsonSchemaTransform({ ...document, schema: others } as SchemaDocument);
  const content: Record<string, { schema: unknown }> = {};
  for (const [type, { schema }] of Object.entries(
    (body as { content: Record<string, { schema: unknown }> }).content,
  ))
    content[type] = {
      schema: (
        jsonSchemaTransform({ ...document, schema: { body: schema } } as SchemaDocument).schema as {
          body: unknown;
        }
      ).body,
    };
  return { ...transformed, schema: { ...transformed.schema, body: { content } } };
}

export default fp(routeSchemas, { name: 'route-schemas', fastify: '5.x' });
