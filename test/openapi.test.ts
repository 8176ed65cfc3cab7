import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { OPERATIONS } from '../src/api/http/operations';
import { type RegisteredRoute, registered } from './support/route-recorder';
import { as, type Client, createTestApp, signUp, type TestApp } from './support/test-app';

// Every app this file makes records its routes and its requests' errors.
vi.mock('fastify', async (original) =>
  (await import('./support/route-recorder')).recordingFastify(await original()),
);

interface OpenApiOperation {
  responses?: Record<string, { content?: Record<string, { schema?: object }> }>;
}
interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, object> };
}

/** The routes left out of the document on purpose: pages, the websocket, and the document and its viewer. */
const UNDOCUMENTED = /^\/api\/(login|logout|ws|openapi\.json|docs(\/.*)?)$/;

const methodsOf = (route: RegisteredRoute) => (Array.isArray(route.method) ? route.method : [route.method]);
const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

describe('the OpenAPI document made from the routes’ schemas', () => {
  let t: TestApp;
  let lan: Client;
  let document: OpenApiDocument;

  beforeAll(async () => {
    t = await createTestApp();
    lan = as(t.app, (await signUp(t.app, 'Lan')).cookie);
    const response = await lan.get('/api/openapi.json');
    expect(response.statusCode).toBe(200);
    document = response.json();
  });
  afterAll(() => t.close());

  /** A schema, or the component its `$ref` names. */
  const resolved = (schema: unknown) => {
    const ref = (schema as { $ref?: string } | undefined)?.$ref;
    return ref ? document.components?.schemas?.[ref.replace('#/components/schemas/', '')] : schema;
  };

  const apiRoutes = () =>
    registered.filter((route) => route.url.startsWith('/api') && !methodsOf(route).includes('HEAD'));

  it('documents every /api call with the schema of its success answer', () => {
    expect(document.openapi).toBe('3.1.0');
    const documented = apiRoutes().filter((route) => !UNDOCUMENTED.test(route.url));
    expect(documented.length).toBeGreaterThan(50);
    for (const route of documented) {
      const responses = route.schema?.response ?? {};
      const success = Object.keys(responses).find((status) => /^2\d\d$/.test(status));
      expect(success, `${route.method} ${route.url} declares no success answer`).toBeDefined();
      for (const method of methodsOf(route)) {
        const operation = document.paths[openApiPath(route.url)]?.[method.toLowerCase()];
        expect(operation, `${method} ${route.url} is missing from the document`).toBeDefined();
        const answer = operation?.responses?.[success!];
        expect(answer, `${method} ${route.url} has no ${success} answer`).toBeDefined();
        if (success !== '204') {
          expect(answer?.content?.['application/json']?.schema, `${method} ${route.url}`).toBeDefined();
        }
      }
    }
  });

  it('names every operation: a unique operationId, a summary and a tag the document describes', () => {
    const documented = apiRoutes().filter((route) => !UNDOCUMENTED.test(route.url));
    const ids: string[] = [];
    const tagNames = (document as unknown as { tags: { name: string }[] }).tags.map((tag) => tag.name);
    for (const route of documented) {
      for (const method of methodsOf(route)) {
        const operation = document.paths[openApiPath(route.url)]?.[method.toLowerCase()] as
          | { operationId?: string; summary?: string; tags?: string[] }
          | undefined;
        expect(
          operation?.operationId,
          `${method} ${route.url} has no entry in src/api/http/operations.ts`,
        ).toMatch(/^[a-z][A-Za-z]+$/);
        expect(operation?.summary, `${method} ${route.url}`).toBeTruthy();
        expect(tagNames).toEqual(expect.arrayContaining(operation?.tags ?? ['(none)']));
        ids.push(operation!.operationId!);
      }
    }
    expect(new Set(ids).size).toBe(ids.length);
    const routeKeys = registered.flatMap((route) =>
      methodsOf(route).map((method) => `${method} ${route.url}`),
    );
    expect(Object.keys(OPERATIONS).filter((key) => !routeKeys.includes(key))).toEqual([]);
  });

  it('documents the errors of every call as problems (application/problem+json), 4XX and 5XX', () => {
    const documented = apiRoutes().filter((route) => !UNDOCUMENTED.test(route.url));
    for (const route of documented) {
      for (const method of methodsOf(route)) {
        const operation = document.paths[openApiPath(route.url)]?.[method.toLowerCase()];
        for (const status of ['4XX', '5XX']) {
          const schema = resolved(
            operation?.responses?.[status]?.content?.['application/problem+json']?.schema,
          ) as { required?: string[] } | undefined;
          expect(schema?.required, `${method} ${route.url} ${status}`).toEqual(
            expect.arrayContaining(['type', 'title', 'status', 'detail', 'code', 'message']),
          );
        }
      }
    }
  });

  it('leaves out only the pages, the websocket and the docs themselves, which are hidden', () => {
    const undocumented = apiRoutes().filter((route) => UNDOCUMENTED.test(route.url));
    for (const route of undocumented) {
      expect(route.schema?.hide, `${route.url} is hidden`).toBe(true);
      expect(document.paths[openApiPath(route.url)]).toBeUndefined();
    }
    const urls = undocumented.map((route) => route.url);
    expect(urls).toEqual(
      expect.arrayContaining(['/api/login', '/api/logout', '/api/ws', '/api/openapi.json']),
    );
    expect(urls.filter((url) => url.startsWith('/api/docs')).length).toBeGreaterThan(3);
  });

  const writes = Object.keys(OPERATIONS).filter((operation) => /^(POST|PUT|PATCH|DELETE) /.test(operation));
  const signedOut = ['POST /api/auth/login', 'POST /api/auth/register'];

  it.each(writes.filter((write) => !signedOut.includes(write)))(
    '%s takes an Idempotency-Key, optional, at most 200 characters',
    (write) => {
      const [method, url] = write.split(' ') as [string, string];
      const operation = document.paths[openApiPath(url)]?.[method.toLowerCase()] as
        | { parameters?: { in: string; name: string; required?: boolean; schema?: { maxLength?: number } }[] }
        | undefined;
      const header = operation?.parameters?.find((p) => p.in === 'header' && p.name === 'idempotency-key');
      expect(header, `${write} documents no Idempotency-Key`).toBeDefined();
      expect(header?.required).toBeFalsy();
      expect(header?.schema?.maxLength).toBe(200);
    },
  );

  it('leaves the Idempotency-Key out of sign-in, sign-up and every read', () => {
    expect(writes).toEqual(expect.arrayContaining(signedOut));
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const keyed = ((operation as { parameters?: { name: string }[] }).parameters ?? []).some(
          (p) => p.name === 'idempotency-key',
        );
        const write = `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`;
        expect(keyed, write).toBe(writes.includes(write) && !signedOut.includes(write));
      }
    }
  });

  it('describes inputs from the same schemas: params, query and body', () => {
    const run = document.paths['/api/executions/{id}/steps/{stepId}/execute']?.post as {
      parameters: { in: string; name: string }[];
      requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> };
    };
    expect(run.parameters.map((p) => [p.in, p.name])).toEqual([
      ['path', 'id'],
      ['path', 'stepId'],
      ['header', 'idempotency-key'],
      ['header', 'prefer'],
    ]);
    expect(Object.keys(run.requestBody.content['application/json']!.schema.properties)).toEqual([
      'userInput',
      'loopIteration',
    ]);
    const events = document.paths['/api/executions/{id}/events']?.get as { parameters: { name: string }[] };
    expect(events.parameters.map((p) => p.name)).toEqual(expect.arrayContaining(['cursor', 'limit', 'id']));
  });

  it('documents conditional requests: ETag answers, If-None-Match and 304 on reads, If-Match and 412 on writes', () => {
    type Documented = {
      parameters?: { in: string; name: string }[];
      responses: Record<string, { headers?: Record<string, unknown>; content?: object }>;
    };
    const operation = (path: string, method: string) => document.paths[path]?.[method] as Documented;
    const headerParameters = (o: Documented) =>
      (o.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name);
    for (const [path, method] of [
      ['/api/flows/{id}', 'get'],
      ['/api/flows/{flowId}/steps', 'get'],
      ['/api/executions/{id}', 'get'],
    ] as const) {
      const read = operation(path, method);
      expect(headerParameters(read), `${method} ${path}`).toEqual(['If-None-Match']);
      expect(Object.keys(read.responses['200']?.headers ?? {}), `${method} ${path}`).toEqual(['ETag']);
      expect(read.responses['304']?.content, `${method} ${path}: a 304 has no body`).toBeUndefined();
    }
    for (const [path, method, success] of [
      ['/api/flows/{id}', 'put', '200'],
      ['/api/flows/{id}', 'delete', null],
      ['/api/steps/{id}', 'put', '200'],
      ['/api/steps/{id}', 'delete', '204'],
    ] as const) {
      const write = operation(path, method);
      expect(headerParameters(write), `${method} ${path}`).toEqual(expect.arrayContaining(['If-Match']));
      expect(write.responses['412']?.content, `${method} ${path}`).toBeDefined();
      if (success) expect(Object.keys(write.responses[success]?.headers ?? {})).toEqual(['ETag']);
    }
  });

  it('answers only what the schema declares: a column beyond it never reaches the client', async () => {
    const flow = (await lan.post('/api/flows', { name: 'Đà Lạt', description: 'Chuyến đi' })).json();
    // The row also holds logsClearedAt, which the answer leaves out.
    expect(Object.keys(flow).sort()).toEqual([
      'createdAt',
      'description',
      'id',
      'isTemplate',
      'name',
      'status',
      'updatedAt',
      'userId',
      'workspaceId',
    ]);
    expect((await lan.get(`/api/flows/${flow.id}`)).json()).toEqual(flow);
  });

  it('refuses input its schema refuses with 400, the first problem after its field, and every issue', async () => {
    const badId = await lan.get('/api/flows/not-a-uuid');
    expect(badId.statusCode).toBe(400);
    expect(badId.json()).toMatchObject({
      message: expect.stringMatching(/^id: /),
      issues: [expect.objectContaining({ path: ['id'], code: expect.any(String) })],
    });
    const badBody = await lan.post('/api/steps', { flowId: 'x', name: ' ', order: 0 });
    expect(badBody.statusCode).toBe(400);
    expect(badBody.json().message).toMatch(/^flowId: /);
    expect(badBody.json().issues.map((issue: { path: string[] }) => issue.path.join('.'))).toEqual([
      'flowId',
      'name',
      'order',
    ]);
    // A command that takes no fields says so too: fields sent to it are refused, not ignored.
    const flow = (await lan.post('/api/flows', { name: 'No fields', description: 'x' })).json();
    const stray = await lan.post(`/api/flows/${flow.id}/execute`, { userInput: 'ignored?' });
    expect(stray.statusCode).toBe(400);
    expect((await lan.post(`/api/flows/${flow.id}/execute`)).statusCode).toBe(201);
  });

  it('serves a browsable viewer of its own files, within the app’s Content-Security-Policy', async () => {
    const page = await lan.get('/api/docs/');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toMatch(/default-src 'self'/);
    expect(csp).not.toMatch(/unsafe-eval/);
    // Every script is a file of the viewer, served from here: nothing inline, nothing from a CDN.
    const scripts = [...page.body.matchAll(/<script([^>]*)>/g)].map((match) => match[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const attributes of scripts) {
      const source = /src="([^"]+)"/.exec(attributes)?.[1];
      expect(source, 'no inline script').toBeDefined();
      expect(source).toMatch(/^\.\/static\//);
      expect((await lan.get(`/api/docs/${source!.slice(2)}`)).statusCode).toBe(200);
    }
    const initializer = await lan.get('/api/docs/static/swagger-initializer.js');
    expect(initializer.body).toContain("resolveUrl('./json')");
    expect((await lan.get('/api/docs/json')).json().openapi).toBe('3.1.0');
  });

  it('names the shared shapes once, as components, and refers to them', () => {
    const schemas = document.components?.schemas ?? {};
    for (const name of [
      'Flow',
      'Step',
      'StepSnapshot',
      'Execution',
      'StepResult',
      'HistoryEvent',
      'Problem',
    ]) {
      expect(schemas[name], name).toBeDefined();
    }
    const text = JSON.stringify(document.paths);
    expect(text).toContain('"$ref":"#/components/schemas/Execution"');
    // The execution's shape is written once, not at every operation that answers it.
    expect(text).not.toContain('"executionQueue"');
    // Each history event's data is that of its type.
    const history = schemas.HistoryEvent as { oneOf?: { properties: { type: { const: string } } }[] };
    const types = (history.oneOf ?? []).map((event) => event.properties.type.const);
    expect(types).toEqual(
      expect.arrayContaining([
        'ExecutionStarted',
        'StepRunSucceeded',
        'ResultEdited',
        'ReviewRequested',
        'ReviewApproved',
        'ReviewRejected',
        'ReviewDue',
        'ReviewHandedBack',
        'ReviewSentToOwners',
        'ReviewWithdrawn',
      ]),
    );
    expect(types).toHaveLength(20);
  });

  it("documents a rate limit's headers, and its 429 with Retry-After", () => {
    type Answer = { headers?: Record<string, unknown>; content?: Record<string, { schema?: unknown }> };
    for (const path of ['/api/executions/{id}/steps/{stepId}/execute', '/api/auth/login']) {
      const operation = document.paths[path]?.post as unknown as
        | { responses: Record<string, Answer> }
        | undefined;
      const responses = operation?.responses ?? {};
      expect(Object.keys(responses['429']?.headers ?? {}), path).toEqual(
        expect.arrayContaining(['retry-after', 'x-ratelimit-remaining']),
      );
      expect(resolved(responses['429']?.content?.['application/problem+json']?.schema), path).toBeDefined();
      expect(Object.keys(responses['200']?.headers ?? {}), path).toContain('x-ratelimit-limit');
    }
    // An operation without a limit says nothing of one.
    const unlimited = document.paths['/api/flows']?.get as unknown as { responses: object } | undefined;
    expect(unlimited?.responses).toBeDefined();
    expect(unlimited?.responses).not.toHaveProperty('429');
  });
});
