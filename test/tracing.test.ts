import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_TELEMETRY } from '../src/api/cli/cluster-processes';
import { createTestDatabase, type TestDatabase } from './support/database';
import { type FakeGemini, startFakeGemini } from './support/fake-gemini';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './support/otlp-receiver';
import { startServerProcess, withoutDatabaseUrl } from './support/server-process';
import { receiver as webhookReceiver } from './support/webhook-receiver';

/** Texts a user writes and a model answers: none of them may reach a trace unless content capture is on. */
const SYSTEM_PROMPT = 'Summarise the harbour ledger of Quillon';
const USER_INPUT = 'zebra-7731 marmalade';
const ANSWER = 'The ledger of quokka-5519 balances.';
const TEXTS = [SYSTEM_PROMPT, USER_INPUT, ANSWER];

const SERVER = 2;
const CLIENT = 3;
const INTERNAL = 1;
const CONSUMER = 5;
const ERROR = 2;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

/** A person signed up on the server, calling its API with their cookie. */
async function signUp(url: string, firstName: string) {
  const email = `${firstName.toLowerCase()}-${Date.now()}-${Math.random()}@example.com`;
  const registered = await fetch(`${url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'correct horse battery', firstName, lastName: 'Tran' }),
  });
  expect(registered.status).toBe(201);
  const { id } = (await registered.json()) as { id: string };
  const cookie = (registered.headers.get('set-cookie') ?? '').split(';')[0]!;
  const call = async (method: string, route: string, body?: unknown, status = 200) => {
    const response = await fetch(`${url}${route}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    expect(response.status, text).toBe(status);
    return JSON.parse(text);
  };
  return { email, call, id };
}

/**
 * A two-step flow in a workspace, its first step reviewed by a reviewer, run on a server that exports its
 * traces to `receiver`: the owner runs the first step (a model call), the reviewer approves it, the owner
 * runs the second. The server is stopped gracefully at the end, which sends its last spans.
 */
async function runFlow(db: TestDatabase, fake: FakeGemini, receiver: OtlpReceiver, capture: boolean) {
  const hooks = await webhookReceiver(() => '', { failFirst: false });
  const server = await startServerProcess(db.url, {
    WEBHOOK_HOSTS: hooks.host,
    QUEUE_POLL_SECONDS: '0.5',
    GEMINI_API_KEY: 'fake-gemini-key',
    GOOGLE_GEMINI_BASE_URL: fake.url,
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    ...(capture ? { OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true' } : {}),
  });
  try {
    const owner = await signUp(server.url, 'Owner');
    const reviewer = await signUp(server.url, 'Reviewer');
    const workspace = await owner.call('POST', '/api/workspaces', { name: 'Harbour' }, 201);
    const invited = await owner.call(
      'POST',
      `/api/workspaces/${workspace.id}/invitations`,
      { email: reviewer.email, role: 'reviewer' },
      201,
    );
    await reviewer.call('POST', `/api/invitations/${invited.acceptUrl.split('/').at(-1)}/accept`);
    await owner.call(
      'POST',
      `/api/workspaces/${workspace.id}/webhooks`,
      { url: `http://${hooks.host}/ledger`, events: ['*'] },
      201,
    );
    const flow = await owner.call(
      'POST',
      '/api/flows',
      { name: 'Ledger', description: 'Harbour', workspaceId: workspace.id },
      201,
    );
    const draft = await owner.call(
      'POST',
      '/api/steps',
      {
        flowId: flow.id,
        name: 'Draft',
        order: 1,
        systemPrompt: SYSTEM_PROMPT,
        review: { by: 'role', role: 'reviewer', approvals: 1 },
      },
      201,
    );
    const publish = await owner.call(
      'POST',
      '/api/steps',
      { flowId: flow.id, name: 'Publish', order: 2, systemPrompt: 'Polish [[step-1]].' },
      201,
    );
    const execution = await owner.call('POST', `/api/flows/${flow.id}/execute`, undefined, 201);
    const first = await owner.call('POST', `/api/executions/${execution.id}/steps/${draft.id}/execute`, {
      userInput: USER_INPUT,
    });
    const review = first.execution.reviews[0];
    await reviewer.call('POST', `/api/reviews/${review.id}/approve`, {});
    await owner.call('POST', `/api/executions/${execution.id}/steps/${publish.id}/execute`, {});
    // The run's events reach the workspace's webhook through the job queue.
    await expect.poll(() => hooks.deliveries.length, { timeout: 30_000 }).toBeGreaterThan(0);
    return { executionId: execution.id as string, reviewerId: reviewer.id, draftId: draft.id as string };
  } finally {
    await server.stop();
    await hooks.close();
  }
}

const named = (spans: ReceivedSpan[], name: string) => spans.filter((span) => span.name === name);

describe('traces over OTLP', () => {
  let db: TestDatabase;
  let fake: FakeGemini;

  beforeAll(async () => {
    db = await createTestDatabase();
    fake = await startFakeGemini({ respond: () => ({ text: ANSWER }) });
  });
  afterAll(async () => {
    await fake?.close();
    await db?.drop();
  });

  it('has the HTTP spans by route, a step span with its chat span and the GenAI attributes, the review decision, the webhook job linked to its request, and no text of a prompt or answer', async () => {
    const receiver = await startOtlpReceiver();
    try {
      const { executionId, reviewerId, draftId } = await runFlow(db, fake, receiver, false);
      const { spans } = receiver;
      const model = fake.requests[0]!.model;

      // A server span per request, named by its route's template, never by its path with ids.
      const runs = named(spans, 'POST /api/executions/:id/steps/:stepId/execute');
      expect(runs).toHaveLength(2);
      for (const run of runs) {
        expect(run.kind).toBe(SERVER);
        expect(run.attributes['http.route']).toBe('/api/executions/:id/steps/:stepId/execute');
        expect(run.service).toBe('prompt-flow-workbench');
      }
      expect(named(spans, 'POST /api/reviews/:id/approve')).toHaveLength(1);
      expect(spans.filter((span) => span.kind === SERVER && UUID.test(span.name))).toEqual([]);

      // The step run, child of its request's trace, and the model call its child with the GenAI attributes.
      const [step] = named(spans, 'step Draft');
      expect(step).toBeDefined();
      expect(step!.kind).toBe(INTERNAL);
      expect(step!.traceId).toBe(runs[0]!.traceId);
      expect(step!.attributes).toMatchObject({
        'gen_ai.operation.name': 'invoke_workflow',
        'workbench.execution.id': executionId,
        'workbench.step.id': draftId,
        'workbench.event.position': expect.any(Number),
        'workbench.event.end_position': expect.any(Number),
      });
      const chats = named(spans, `chat ${model}`);
      expect(chats).toHaveLength(2);
      const chat = chats.find((span) => span.parentSpanId === step!.spanId);
      expect(chat).toBeDefined();
      expect(chat!.kind).toBe(CLIENT);
      expect(chat!.attributes).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'gcp.gemini',
        'gen_ai.request.model': model,
        'gen_ai.response.model': model,
        'gen_ai.usage.input_tokens': expect.any(Number),
        'gen_ai.usage.output_tokens': expect.any(Number),
        'gen_ai.response.finish_reasons': ['stop'],
        'workbench.execution.id': executionId,
        'workbench.event.position': step!.attributes['workbench.event.position'],
      });
      expect(chat!.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
      expect(chat!.events.map((event) => event.name)).toContain('gen_ai.response.first_chunk');
      expect(chat!.status.code).not.toBe(ERROR);
      // The provider's HTTP call (undici's client span) is the chat span's child.
      expect(spans.some((span) => span.kind === CLIENT && span.parentSpanId === chat!.spanId)).toBe(true);

      // The review's decision: what was decided, the quorum, the decider's role; not who decided.
      const [decision] = named(spans, 'review decision');
      expect(decision).toBeDefined();
      expect(decision!.attributes).toMatchObject({
        'workbench.execution.id': executionId,
        'workbench.event.position': expect.any(Number),
        'workbench.review.decision': 'approve',
        'workbench.review.status': 'approved',
        'workbench.review.quorum': '1 of 1',
        'workbench.review.decider_role': 'reviewer',
      });
      expect(JSON.stringify(decision)).not.toContain(reviewerId);

      // A webhook's delivery: its job's CONSUMER span, linked to a span of the request that queued it, and the
      // delivery's CLIENT span within.
      const delivery = named(spans, 'webhook delivery').find((span) => span.status.code !== ERROR);
      expect(delivery).toBeDefined();
      expect(delivery!.kind).toBe(CLIENT);
      expect(delivery!.attributes['http.response.status_code']).toBe(200);
      const job = spans.find((span) => span.spanId === delivery!.parentSpanId);
      expect(job).toMatchObject({ kind: CONSUMER, attributes: { 'messaging.system': 'pg-boss' } });
      expect(job!.links).toHaveLength(1);
      const queuedBy = spans.find((span) => span.spanId === job!.links[0]!.spanId);
      expect(queuedBy).toBeDefined();
      expect(spans.some((span) => span.kind === SERVER && span.traceId === queuedBy!.traceId)).toBe(true);

      // No prompt, input or answer anywhere in what was exported.
      const exported = receiver.bodies.join('\n');
      for (const text of TEXTS) expect(exported).not.toContain(text);
      expect(spans.flatMap((span) => span.events).map((event) => event.name)).not.toContain(
        'gen_ai.client.inference.operation.details',
      );
    } finally {
      await receiver.close();
    }
  }, 120_000);

  it('with content capture on, has the texts only in the chat spans’ details events', async () => {
    const receiver = await startOtlpReceiver();
    try {
      await runFlow(db, fake, receiver, true);
      const { spans } = receiver;
      const model = fake.requests.at(-1)!.model;
      const details = spans.flatMap((span) =>
        span.events
          .filter((event) => event.name === 'gen_ai.client.inference.operation.details')
          .map((event) => ({ span, event })),
      );
      expect(details).toHaveLength(2);
      for (const { span } of details) expect(span.name).toBe(`chat ${model}`);
      const draft = details.find(({ event }) =>
        (event.attributes['gen_ai.input.messages'] as string).includes(USER_INPUT),
      );
      expect(draft).toBeDefined();
      const { attributes } = draft!.event;
      expect(JSON.parse(attributes['gen_ai.system_instructions'] as string)).toEqual([
        { type: 'text', content: expect.any(String) },
      ]);
      const [input] = JSON.parse(attributes['gen_ai.input.messages'] as string);
      expect(input).toEqual({ role: 'user', parts: [{ type: 'text', content: expect.any(String) }] });
      expect(input.parts[0].content).toContain(SYSTEM_PROMPT);
      expect(input.parts[0].content).toContain(USER_INPUT);
      expect(JSON.parse(attributes['gen_ai.output.messages'] as string)).toEqual([
        { role: 'assistant', parts: [{ type: 'text', content: ANSWER }], finish_reason: 'stop' },
      ]);
      // Everywhere else (every span's attributes, every other event), none of the texts.
      const elsewhere = JSON.stringify(
        spans.map((span) => ({
          ...span,
          events: span.events.filter((event) => event.name !== 'gen_ai.client.inference.operation.details'),
        })),
      );
      for (const text of TEXTS) expect(elsewhere).not.toContain(text);
    } finally {
      await receiver.close();
    }
  }, 120_000);
});

describe('the telemetry module every start loads first', () => {
  /** What a process started as the server is (`--import` of the built module) has loaded of OpenTelemetry. */
  async function loaded(env: Record<string, string>) {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '--import',
        BUILT_TELEMETRY,
        '-e',
        `console.log(JSON.stringify({
          modules: Object.keys(require.cache).filter((file) => file.includes('@opentelemetry')).length,
          registered: globalThis[Symbol.for('opentelemetry.js.api.1')] !== undefined,
        }))`,
      ],
      { env: { ...withoutOtel(withoutDatabaseUrl(process.env)), ...env } },
    );
    return JSON.parse(stdout) as { modules: number; registered: boolean };
  }

  it('loads nothing of OpenTelemetry without the OTEL_* variables, and the SDK with them', async () => {
    expect(await loaded({})).toEqual({ modules: 0, registered: false });
    const on = await loaded({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' });
    expect(on.registered).toBe(true);
    expect(on.modules).toBeGreaterThan(0);
    expect(
      await loaded({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', OTEL_SDK_DISABLED: 'true' }),
    ).toEqual({ modules: 0, registered: false });
  });
});

/** An environment without any OTEL_* variable. */
const withoutOtel = (env: NodeJS.ProcessEnv) =>
  Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('OTEL_')));
