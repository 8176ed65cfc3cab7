import type { FastifyInstance } from 'fastify';
import { createOfflineProvider } from '../../src/ai';
import { type AppServices, buildApp } from '../../src/api/app';
import { connect } from '../../src/api/database/connection';
import { type Config, jobQueuePoolSize } from '../../src/api/runtime/config';
import { DEFAULT_LIMITS } from '../../src/domain/limits';
import { EventStore } from '../../src/eventstore';
import { createTestDatabase, TEST_APP_SECRET, TEST_POOL_SIZE, type TestDatabase } from './database';

export { TEST_APP_SECRET };

/**
 * Where tests find the Gemini API unless they start a fake one: nothing listens there, so a key check or a
 * call with an own key fails at once as unreachable, whatever network the machine has.
 */
export const UNREACHABLE_GEMINI = 'http://127.0.0.1:9';

/** The host tests' webhooks may name: `.invalid` never resolves, so a delivery to it fails at once. */
export const TEST_WEBHOOK_HOST = 'hooks.invalid';

/** The services of a server whose every model call the offline model answers. */
export const OFFLINE_MODEL: Pick<AppServices, 'resolveModel'> = {
  resolveModel: () => ({ provider: createOfflineProvider(), keySource: 'offline' }),
};

/**
 * The offline model for every call, and every own key taken by its provider as it is saved (none is reached
 * in tests): a key saved unchecked would be asked about again at its first use (409 while still away).
 */
export const OFFLINE_WITH_KEYS: Pick<AppServices, 'resolveModel' | 'checkApiKey'> = {
  ...OFFLINE_MODEL,
  checkApiKey: async () => ({ outcome: 'accepted' as const }),
};

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    databaseUrl: undefined,
    databasePoolSize: TEST_POOL_SIZE,
    jobQueuePoolSize: jobQueuePoolSize(TEST_POOL_SIZE),
    port: 0,
    host: '127.0.0.1',
    dataDir: '/tmp/workbench-test-data',
    appSecret: TEST_APP_SECRET,
    auditSigningKeyFile: '/tmp/workbench-test-data/audit-key',
    checkpointDir: undefined,
    checkpointEverySeconds: 86_400,
    geminiApiKey: undefined,
    geminiModel: 'gemini-2.5-flash',
    geminiBaseUrl: UNREACHABLE_GEMINI,
    openaiApiKey: undefined,
    openaiBaseUrl: undefined,
    anthropicApiKey: undefined,
    anthropicBaseUrl: undefined,
    ollamaBaseUrl: undefined,
    models: [],
    defaultModel: undefined,
    freeStepAllowance: 15,
    snapshotEvery: 100,
    modelTimeoutMs: 120_000,
    modelCallsPerMinute: 120,
    logLevel: 'silent',
    redisUrl: undefined,
    shutdownGraceMs: 20_000,
    allowKeyMismatch: false,
    requestTimeoutMs: 30_000,
    connectionsPerClient: 256,
    trustProxy: false,
    masterModeApiHosts: [],
    webhookHosts: [TEST_WEBHOOK_HOST],
    modelEndpointHosts: [],
    smtpUrl: undefined,
    mailFrom: 'Workbench <no-reply@example.com>',
    publicUrl: 'http://workbench.test',
    publicUrlSet: false,
    queuePollSeconds: 0.5,
    webhookRetryDelaySeconds: 1,
    limits: DEFAULT_LIMITS,
    metrics: { serve: 'off' },
    ...overrides,
  };
}

export interface TestApp {
  app: FastifyInstance;
  db: TestDatabase;
  store: EventStore;
  close(): Promise<void>;
}

/** The whole server on a fresh database of its own. */
export async function createTestApp(
  overrides: Partial<Config> = {},
  services: Pick<AppServices, 'resolveModel' | 'checkApiKey'> = {},
): Promise<TestApp> {
  const db = await createTestDatabase();
  const store = new EventStore(db.sql);
  const config = testConfig({ databaseUrl: db.url, ...overrides });
  const app = await buildApp({ config, sql: db.sql, store, ...services });
  return {
    app,
    db,
    store,
    async close() {
      await app.close();
      await db.drop();
    },
  };
}

export interface AnotherInstance {
  app: FastifyInstance;
  close(): Promise<void>;
}

/**
 * Another server instance on the same database, as a second process behind a load balancer: its own
 * connections, event store, log tailer and memory. `close` closes it and its connections.
 */
export async function anotherInstance(
  databaseUrl: string,
  overrides: Partial<Config> = {},
  services: Pick<AppServices, 'resolveModel'> = {},
): Promise<AnotherInstance> {
  const config = testConfig({ databaseUrl, ...overrides });
  const sql = connect(databaseUrl, { max: config.databasePoolSize, appSecret: TEST_APP_SECRET });
  try {
    const app = await buildApp({ config, sql, store: new EventStore(sql), ...services });
    return {
      app,
      async close() {
        await app.close();
        await sql.end({ timeout: 5 });
      },
    };
  } catch (error) {
    await sql.end({ timeout: 5 });
    throw error;
  }
}

let accounts = 0;

/** Registers a new account and returns its session cookie and user. */
export async function signUp(
  app: FastifyInstance,
  firstName = 'An',
  options: { remoteAddress?: string } = {},
) {
  accounts++;
  const email = `user${accounts}-${Date.now()}@example.com`;
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    ...options,
    payload: { email, password: 'correct horse battery', firstName, lastName: 'Nguyen' },
  });
  if (response.statusCode >= 300) throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
  const setCookie = response.headers['set-cookie'];
  const cookie = (Array.isArray(setCookie) ? setCookie : [setCookie ?? ''])
    .map((c) => c.split(';')[0])
    .join('; ');
  return { cookie, user: response.json() as { id: string; email: string }, email };
}

let addresses = 0;
/**
 * An address of its own for a sign-up, so a test that needs many accounts does not meet the sign-in limit
 * per address (which the tests of that limit count from 127.0.0.1).
 */
export const anotherAddress = () => {
  addresses++;
  return `10.${(addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}`;
};

/** inject() with a session cookie. */
export function as(app: FastifyInstance, cookie: string) {
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers = {}) =>
    app.inject({
      method,
      url,
      headers: { cookie, ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return {
    /** The session cookie, for what is not a call (a websocket). */
    cookie,
    get: (url: string) => call('GET', url),
    post: (url: string, payload?: unknown, headers?: Record<string, string>) =>
      call('POST', url, payload, headers),
    put: (url: string, payload?: unknown) => call('PUT', url, payload),
    delete: (url: string) => call('DELETE', url),
  };
}

export type Client = ReturnType<typeof as>;

/** A flow with the given steps, in order; every step field not given keeps its default. */
export async function createFlow(
  client: Client,
  name: string,
  steps: Array<{ name: string; systemPrompt: string } & Record<string, unknown>>,
) {
  const flow = (await client.post('/api/flows', { name, description: `${name} flow` })).json();
  const created = [];
  for (const [i, step] of steps.entries()) {
    created.push((await client.post('/api/steps', { flowId: flow.id, order: i + 1, ...step })).json());
  }
  return { flow, steps: created };
}

/**
 * A two-step tea flow (step 2's prompt takes `[[step-1]]`) with an execution started, and the way to run one
 * of its steps (with headers, e.g. an Idempotency-Key).
 */
export async function teaFlowExecution(client: Client) {
  const { flow, steps } = await createFlow(client, 'Tea', [
    { name: 'Ideas', systemPrompt: 'List three ideas about tea.' },
    { name: 'Pick', systemPrompt: 'Pick the best of [[step-1]].' },
  ]);
  const executionId: string = (await client.post(`/api/flows/${flow.id}/execute`)).json().id;
  const run = (stepId: string, headers: Record<string, string> = {}) =>
    client.post(`/api/executions/${executionId}/steps/${stepId}/execute`, {}, headers);
  return { flow, steps, executionId, run };
}
