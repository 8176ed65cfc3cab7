import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeAnthropic, startFakeAnthropic } from './support/fake-anthropic';
import { type FakeOpenAI, startFakeOpenAI } from './support/fake-openai';
import { as, type Client, createFlow, createTestApp, signUp, type TestApp } from './support/test-app';

/**
 * Own keys of each provider, through the real SDKs against local fakes: the server has an OpenAI key of its own
 * and no Anthropic key; a user's own key answers its provider's models only, and lifts the free allowance for
 * those runs only. An openai-compatible key reaches only a host MODEL_ENDPOINT_HOSTS lists.
 */

const SERVER_OPENAI_KEY = 'sk-server-key';
/** Where nothing listens: an allowed endpoint that cannot be asked about a key. */
const SILENT_HOST = '127.0.0.1:9';

let openai: FakeOpenAI;
/** A user's own OpenAI-compatible endpoint, with models of its own. */
let ownEndpoint: FakeOpenAI;
let anthropic: FakeAnthropic;
let t: TestApp;

beforeAll(async () => {
  openai = await startFakeOpenAI({ rejectedKeys: ['sk-revoked'] });
  ownEndpoint = await startFakeOpenAI({ models: ['own-llama'] });
  anthropic = await startFakeAnthropic({ rejectedKeys: ['sk-ant-revoked'] });
  t = await createTestApp({
    openaiBaseUrl: openai.url,
    openaiApiKey: SERVER_OPENAI_KEY,
    anthropicBaseUrl: anthropic.url,
    anthropicApiKey: undefined,
    models: ['openai:gpt-4.1-mini', 'anthropic:claude-sonnet-5'],
    // A step naming no model runs offline: it spends the allowance unless a Gemini key answers it.
    defaultModel: 'offline:offline',
    freeStepAllowance: 1,
    modelEndpointHosts: [new URL(ownEndpoint.url).host, SILENT_HOST],
  });
});
afterAll(async () => {
  await t?.close();
  await openai?.close();
  await ownEndpoint?.close();
  await anthropic?.close();
});

const newUser = async (name: string) => as(t.app, (await signUp(t.app, name)).cookie);

/** A one-step flow on `model` (null: the default) with an execution, and a way to run its step. */
async function runnerOn(client: Client, model: string | null) {
  const {
    flow,
    steps: [step],
  } = await createFlow(client, `On ${model}`, [{ name: 'Write', systemPrompt: 'Write one line about tea' }]);
  if (model) expect((await client.put(`/api/steps/${step.id}`, { model })).statusCode).toBe(200);
  const executionId: string = (await client.post(`/api/flows/${flow.id}/execute`)).json().id;
  return {
    executionId,
    run: () => client.post(`/api/executions/${executionId}/steps/${step.id}/execute`, { userInput: '' }),
  };
}

async function keySources(executionId: string) {
  const { events } = await t.store.readStream(`execution-${executionId}`);
  return events
    .filter((event) => event.type === 'StepRunStarted')
    .map((event) => (event.data as { keySource: string }).keySource);
}

const chatCalls = (fake: FakeOpenAI) => fake.requests.filter((r) => r.path.endsWith('/chat/completions'));
const modelIds = async (client: Client) =>
  (await client.get('/api/models')).json() as Array<{ id: string; provider: string; source: string }>;

describe('own keys per provider', () => {
  it("answers openai: models with the user's own OpenAI key, and lifts the allowance for those runs only", async () => {
    const lan = await newUser('Lan');
    const apiKey = 'sk-lan-own-openai-key';
    const added = await lan.post('/api/user/api-keys', { keyName: 'Mine', apiKey, keyType: 'openai' });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({ keyType: 'openai', baseUrl: null, check: { outcome: 'accepted' } });
    // Checked with OpenAI (the server's address for openai: models) with the user's key.
    expect(openai.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/models', apiKey });

    const onOpenAI = await runnerOn(lan, 'openai:gpt-4.1-mini');
    for (let i = 0; i < 3; i++) {
      const run = await onOpenAI.run();
      expect(run.statusCode, run.body).toBe(200);
      expect(chatCalls(openai).at(-1)!.apiKey).toBe(apiKey);
    }
    expect(await keySources(onOpenAI.executionId)).toEqual(['own', 'own', 'own']);
    // The default is offline, which an OpenAI key does not answer: the allowance is still counted there.
    expect((await lan.get('/api/user/usage')).json()).toEqual({ remainingSteps: 1, usedSteps: 0 });

    const offline = await runnerOn(lan, null);
    expect((await offline.run()).statusCode).toBe(200);
    expect((await lan.get('/api/user/usage')).json()).toEqual({ remainingSteps: 0, usedSteps: 1 });
    expect((await offline.run()).statusCode).toBe(429);
    expect(await keySources(offline.executionId)).toEqual(['offline']);
    // ...while the OpenAI runs go on.
    expect((await onOpenAI.run()).statusCode).toBe(200);

    // Another user's runs on the same model use the server's key, and spend their allowance.
    const binh = await newUser('Bình');
    const theirs = await runnerOn(binh, 'openai:gpt-4.1-mini');
    expect((await theirs.run()).statusCode).toBe(200);
    expect(chatCalls(openai).at(-1)!.apiKey).toBe(SERVER_OPENAI_KEY);
    expect(await keySources(theirs.executionId)).toEqual(['default']);
    expect((await binh.get('/api/user/usage')).json()).toEqual({ remainingSteps: 0, usedSteps: 1 });
  });

  it("offers Anthropic's models to a user with an own Anthropic key, and answers them with it", async () => {
    const mai = await newUser('Mai');
    // The server has no Anthropic key: its models are not offered, and a step naming one runs on the default.
    expect((await modelIds(mai)).map((m) => m.id)).not.toContain('anthropic:claude-sonnet-5');
    const before = await runnerOn(mai, 'anthropic:claude-sonnet-5');
    expect((await before.run()).statusCode).toBe(200);
    expect(await keySources(before.executionId)).toEqual(['offline']);

    const apiKey = 'sk-ant-mai-own-key';
    const added = await mai.post('/api/user/api-keys', { keyName: 'Claude', apiKey, keyType: 'anthropic' });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json().check).toEqual({ outcome: 'accepted', message: null });
    expect(anthropic.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/models', apiKey });

    const models = await modelIds(mai);
    expect(models.find((m) => m.id === 'anthropic:claude-sonnet-5')).toMatchObject({
      provider: 'anthropic',
      source: 'own key',
    });
    expect(models.find((m) => m.id === 'openai:gpt-4.1-mini')).toMatchObject({ source: 'server' });

    const onClaude = await runnerOn(mai, 'anthropic:claude-sonnet-5');
    for (let i = 0; i < 2; i++) {
      const run = await onClaude.run();
      expect(run.statusCode, run.body).toBe(200);
      expect(run.json().results[0].result).toContain('Fake Anthropic answer');
    }
    const calls = anthropic.requests.filter((r) => r.method === 'POST');
    // This SDK sends the key as a bearer token; the fake reads either header.
    expect(calls.map((r) => r.apiKey)).toEqual([apiKey, apiKey]);
    expect(await keySources(onClaude.executionId)).toEqual(['own', 'own']);
    // The allowance was spent once, on the run before the key (Anthropic runs past it went on).
    expect((await mai.get('/api/user/usage')).json()).toEqual({ remainingSteps: 0, usedSteps: 1 });
    const [listed] = (await mai.get('/api/user/api-keys')).json();
    expect(listed.lastUsed).not.toBeNull();
  });

  it('saves nothing when the provider refuses the key, and names the provider', async () => {
    const an = await newUser('An');
    const openaiRefused = await an.post('/api/user/api-keys', {
      keyName: 'Old',
      apiKey: 'sk-revoked',
      keyType: 'openai',
    });
    expect(openaiRefused.statusCode).toBe(400);
    expect(openaiRefused.json()).toMatchObject({
      code: 'rule_violated',
      message: 'OpenAI không nhận API key này: Incorrect API key provided: sk-revoked.',
    });
    const anthropicRefused = await an.post('/api/user/api-keys', {
      keyName: 'Old',
      apiKey: 'sk-ant-revoked',
      keyType: 'anthropic',
    });
    expect(anthropicRefused.statusCode).toBe(400);
    expect(anthropicRefused.json().message).toBe('Anthropic không nhận API key này: invalid x-api-key');
    expect((await an.get('/api/user/api-keys')).json()).toEqual([]);
  });

  it('refuses an endpoint on a host MODEL_ENDPOINT_HOSTS does not list, before calling it, and saves nothing', async () => {
    const hoa = await newUser('Hoa');
    const asked = openai.requests.length;
    for (const baseUrl of [
      'http://169.254.169.254/v1',
      'http://127.0.0.1:5432',
      // The server's own OpenAI address is not the user's to name either.
      openai.url,
      'file:///etc/passwd',
    ]) {
      const refused = await hoa.post('/api/user/api-keys', {
        keyName: 'Internal',
        apiKey: 'sk-anything',
        keyType: 'openai-compatible',
        baseUrl,
      });
      expect(refused.statusCode, baseUrl).toBe(400);
      expect(refused.json().code).toBe('rule_violated');
    }
    const metadata = await hoa.post('/api/user/api-keys', {
      keyName: 'Internal',
      apiKey: 'sk-anything',
      keyType: 'openai-compatible',
      baseUrl: 'http://169.254.169.254/v1',
    });
    expect(metadata.json().message).toMatch(
      /^Host 169\.254\.169\.254 không được phép .*\(MODEL_ENDPOINT_HOSTS\)$/,
    );
    expect(openai.requests.length).toBe(asked);
    expect((await hoa.get('/api/user/api-keys')).json()).toEqual([]);
  });

  it("runs openai: models on the user's own OpenAI-compatible endpoint, and offers its models", async () => {
    const quan = await newUser('Quân');
    const apiKey = 'sk-quan-endpoint-key';
    const added = await quan.post('/api/user/api-keys', {
      keyName: 'Home server',
      apiKey,
      keyType: 'openai-compatible',
      baseUrl: `${ownEndpoint.url}/`,
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({
      keyType: 'openai-compatible',
      baseUrl: ownEndpoint.url,
      check: { outcome: 'accepted', message: null },
    });
    expect(ownEndpoint.requests.at(-1)).toMatchObject({ path: '/v1/models', apiKey });

    const listed = await quan.get('/api/user/api-keys');
    expect(listed.json()).toEqual([
      expect.objectContaining({
        keyName: 'Home server',
        keyType: 'openai-compatible',
        baseUrl: ownEndpoint.url,
      }),
    ]);
    expect(listed.body).not.toContain(apiKey);
    expect(added.body).not.toContain(apiKey);

    const models = await modelIds(quan);
    expect(models.find((m) => m.id === 'openai:own-llama')).toMatchObject({
      provider: 'openai',
      source: 'own key',
    });
    // The server endpoint's own list is not offered in its place (its models would go to the user's endpoint).
    expect(models.map((m) => m.id)).not.toContain('openai:gpt-4.1');

    const serverCalls = chatCalls(openai).length;
    const onOwn = await runnerOn(quan, 'openai:own-llama');
    const run = await onOwn.run();
    expect(run.statusCode, run.body).toBe(200);
    expect(run.json().results[0].result).toContain('Fake OpenAI answer');
    expect(chatCalls(ownEndpoint).at(-1)).toMatchObject({ apiKey, body: { model: 'own-llama' } });
    expect(chatCalls(openai).length).toBe(serverCalls);
    expect(await keySources(onOwn.executionId)).toEqual(['own']);

    // Nobody else is offered its models, nor reaches it.
    const other = await newUser('Khác');
    expect((await modelIds(other)).map((m) => m.id)).not.toContain('openai:own-llama');
    expect((await other.delete(`/api/user/api-keys/${added.json().id}`)).statusCode).toBe(404);
    expect((await quan.get('/api/user/api-keys')).json()).toHaveLength(1);
  });

  it('saves a key whose allowed endpoint cannot be reached, and says it is unchecked', async () => {
    const vy = await newUser('Vy');
    const added = await vy.post('/api/user/api-keys', {
      keyName: 'Down',
      apiKey: 'sk-vy',
      keyType: 'openai-compatible',
      baseUrl: `http://${SILENT_HOST}/v1`,
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json().check).toEqual({
      outcome: 'unchecked',
      message: expect.stringMatching(
        /^API key đã được lưu nhưng chưa kiểm tra được với OpenAI-compatible: Cannot reach http:\/\/127\.0\.0\.1:9\/v1/,
      ),
    });
    expect((await vy.get('/api/user/api-keys')).json()).toHaveLength(1);
  });
});
