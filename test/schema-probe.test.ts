import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenAI, isProbe, type SchemaHandling, startFakeOpenAI } from './support/fake-openai';
import {
  anotherInstance,
  as,
  type Client,
  createFlow,
  createTestApp,
  signUp,
  type TestApp,
} from './support/test-app';

/**
 * What an OpenAI-compatible endpoint does with a JSON schema is found by probing each model once, not trusted
 * from a flag: an endpoint that enforces it is sent the schema alone; one that takes it and answers prose is
 * sent the schema and an instruction, and a wrong answer is asked for again; one that refuses the parameter
 * gets the instruction alone. The finding is kept: a restart or another instance does not probe again.
 */

const IDEAS = JSON.stringify([
  { branchName: 'Xanh', content: 'Green tea' },
  { branchName: 'Đen', content: 'Black tea' },
]);

interface Endpoint {
  fake: FakeOpenAI;
  t: TestApp;
  lan: Client;
}

async function endpoint(schema: SchemaHandling): Promise<Endpoint> {
  const fake = await startFakeOpenAI({ models: ['qwen3'], schema });
  // An endpoint that holds no answer to a schema is answered here as a model that knows what it is asked.
  fake.respondWith((body) => {
    const instructed = body.messages?.some((m) => m.role === 'system' && m.content.includes('JSON schema'));
    return { text: instructed ? IDEAS : 'Green tea and black tea are both nice.' };
  });
  const t = await createTestApp({ openaiBaseUrl: fake.url, freeStepAllowance: 100 });
  const lan = as(t.app, (await signUp(t.app, 'Lan')).cookie);
  return { fake, t, lan };
}

/** The endpoint of a describe block, started before its tests and closed after them. */
function endpointFor(schema: SchemaHandling): Endpoint {
  const e = {} as Endpoint;
  beforeAll(async () => {
    Object.assign(e, await endpoint(schema));
  });
  afterAll(async () => {
    await e.t?.close();
    await e.fake?.close();
  });
  return e;
}

const chats = (fake: FakeOpenAI) => fake.requests.filter((r) => r.path.endsWith('/chat/completions'));
const systemOf = (body: { messages?: Array<{ role: string; content: string }> }) =>
  body.messages?.find((m) => m.role === 'system')?.content ?? '';

/** Runs a one-step flow whose step answers several results (a JSON answer); answers the run's labels. */
async function runIdeas({ lan }: Endpoint, name: string) {
  const { flow, steps } = await createFlow(lan, name, [
    { name: 'Ý tưởng', systemPrompt: 'Two teas.', outputMode: 'multiple' },
  ]);
  const execution = (await lan.post(`/api/flows/${flow.id}/execute`)).json();
  const run = await lan.post(`/api/executions/${execution.id}/steps/${steps[0].id}/execute`, {});
  expect(run.statusCode, run.body).toBe(200);
  const [log] = (await lan.get(`/api/flows/${flow.id}/logs`)).json();
  return { labels: run.json().results.map((r: { label: string }) => r.label), log };
}

const structuredOutputOf = async ({ lan }: Endpoint) =>
  (await lan.get('/api/models')).json().find((m: { id: string }) => m.id === 'openai:qwen3').capabilities
    .structuredOutput;

describe('an endpoint that enforces the schema', () => {
  const e = endpointFor('enforced');

  it('is probed once, then sent the schema alone; a restart and another instance keep the finding', async () => {
    expect(await structuredOutputOf(e)).toBeNull();
    // The responder answers prose to a schema without the instruction: an enforcing endpoint holds the
    // answer to the schema, which the fake does for the probe's schema only, so the step's answer is asked
    // again. What counts here is what was sent.
    e.fake.respondWith(() => ({ text: IDEAS }));
    const first = await runIdeas(e, 'Một');
    expect(first.labels).toEqual(['Xanh', 'Đen']);
    const [probe, step] = chats(e.fake);
    expect(isProbe(probe!.body)).toBe(true);
    expect(probe!.body.response_format).toMatchObject({ type: 'json_schema' });
    expect(isProbe(step!.body)).toBe(false);
    expect(step!.body.response_format).toMatchObject({ type: 'json_schema' });
    expect(systemOf(step!.body)).not.toContain('JSON schema');
    expect(await structuredOutputOf(e)).toBe(true);

    await runIdeas(e, 'Hai');
    const other = await anotherInstance(e.t.db.url, { openaiBaseUrl: e.fake.url, freeStepAllowance: 100 });
    try {
      const lan = as(other.app, (await signUp(other.app, 'Minh')).cookie);
      expect((await lan.get('/api/models')).json()[0].capabilities.structuredOutput).toBe(true);
      await runIdeas({ ...e, lan }, 'Ba');
    } finally {
      await other.close();
    }
    expect(chats(e.fake).filter((r) => isProbe(r.body))).toHaveLength(1);
    expect(chats(e.fake)).toHaveLength(4);
  });
});

describe('an endpoint that takes the schema and does not enforce it', () => {
  const e = endpointFor('ignored');

  it('is sent the schema and the instruction, and what it answers is checked', async () => {
    const { labels, log } = await runIdeas(e, 'Một');
    expect(labels).toEqual(['Xanh', 'Đen']);
    const [probe, step] = chats(e.fake);
    expect(isProbe(probe!.body)).toBe(true);
    expect(step!.body.response_format).toMatchObject({ type: 'json_schema' });
    expect(systemOf(step!.body)).toContain('JSON schema');
    expect(log).toMatchObject({ success: true, reasks: 0 });
    expect(await structuredOutputOf(e)).toBe(false);
  });

  it('asks again, at most twice, and then fails the step in words', async () => {
    e.fake.respondWith(() => ({ text: 'Tea is nice.' }));
    const { flow, steps } = await createFlow(e.lan, 'Văn xuôi', [
      { name: 'Ý tưởng', systemPrompt: 'Two teas.', outputMode: 'multiple' },
    ]);
    const asked = () => chats(e.fake).filter((r) => !isProbe(r.body)).length;
    const before = asked();
    const execution = (await e.lan.post(`/api/flows/${flow.id}/execute`)).json();
    const run = await e.lan.post(`/api/executions/${execution.id}/steps/${steps[0].id}/execute`, {});
    expect(run.statusCode).toBeGreaterThanOrEqual(400);
    expect(run.statusCode).toBeLessThan(600);
    expect(run.json().message).not.toMatch(/at .*\.ts:\d+/);
    expect(asked() - before).toBe(3);
    const [log] = (await e.lan.get(`/api/flows/${flow.id}/logs`)).json();
    expect(log).toMatchObject({ success: false, reasks: 2 });
    expect(log.errorMessage).toBeTruthy();
  });
});

describe('an endpoint that refuses the schema parameter', () => {
  const e = endpointFor('refused');

  it('is asked by the instruction alone, and the step answers', async () => {
    const { labels, log } = await runIdeas(e, 'Một');
    expect(labels).toEqual(['Xanh', 'Đen']);
    const [probe, plain, step] = chats(e.fake);
    expect(probe!.body.response_format).toBeDefined();
    expect(plain!.body.response_format).toBeUndefined();
    expect(isProbe(plain!.body)).toBe(true);
    expect(step!.body.response_format).toBeUndefined();
    expect(systemOf(step!.body)).toContain('JSON schema');
    expect(log).toMatchObject({ success: true, reasks: 0 });
    expect(await structuredOutputOf(e)).toBe(false);
    await runIdeas(e, 'Hai');
    expect(chats(e.fake)).toHaveLength(4);
  });
});
