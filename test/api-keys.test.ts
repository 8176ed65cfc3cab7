import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { KeyCheck } from '../src/ai';
import { createOwnKeyCipher } from '../src/api/own-keys/own-key-cipher';
import { MAX_OWN_KEYS_PER_USER, OWN_KEYS_USED_UP } from '../src/domain/api-key';
import { type FakeGemini, startFakeGemini } from './support/fake-gemini';
import {
  as,
  type Client,
  createFlow,
  createTestApp,
  signUp,
  TEST_APP_SECRET,
  type TestApp,
} from './support/test-app';

const FILL_IN_EVERYTHING = 'Vui lòng điền đầy đủ thông tin';

describe('own API keys', () => {
  let t: TestApp;
  let fake: FakeGemini;

  beforeAll(async () => {
    fake = await startFakeGemini({ rejectedKeys: ['AIza-revoked'] });
    // No server key: without an own key a run goes to the offline model and counts toward the allowance.
    t = await createTestApp({ freeStepAllowance: 2, geminiApiKey: undefined, geminiBaseUrl: fake.url });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  afterEach(() => {
    fake.requests.length = 0;
  });

  const newUser = async (name = 'An') => {
    const { cookie, user } = await signUp(t.app, name);
    return { client: as(t.app, cookie), userId: user.id };
  };

  /** A one-step flow with an execution, and a way to run its step again and again. */
  async function runner(client: Client) {
    const {
      flow,
      steps: [step],
    } = await createFlow(client, 'Allowance', [{ name: 'Write', systemPrompt: 'Write one line about tea' }]);
    const execution = (await client.post(`/api/flows/${flow.id}/execute`)).json();
    return {
      executionId: execution.id as string,
      run: () => client.post(`/api/executions/${execution.id}/steps/${step.id}/execute`, { userInput: '' }),
    };
  }

  async function eventTypes(executionId: string) {
    const { events } = await t.store.readStream(`execution-${executionId}`);
    return events.map((event) => event.type);
  }

  it('refuses a key Gemini refuses, with its reason, and saves nothing', async () => {
    const { client } = await newUser();
    const refused = await client.post('/api/user/api-keys', { keyName: 'Old', apiKey: 'AIza-revoked' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      code: 'rule_violated',
      message:
        'Gemini không nhận API key này: API key not valid. Please pass a valid API key. (API_KEY_INVALID)',
    });
    expect((await client.get('/api/user/api-keys')).json()).toEqual([]);
  });

  it('saves a key Gemini cannot be asked about, and says so', async () => {
    const unreachable = await createTestApp({ geminiApiKey: undefined });
    try {
      const client = as(unreachable.app, (await signUp(unreachable.app, 'Lan')).cookie);
      const added = await client.post('/api/user/api-keys', { keyName: 'Offline', apiKey: 'AIza-offline-1' });
      expect(added.statusCode).toBe(201);
      expect(added.json().check).toEqual({
        outcome: 'unchecked',
        message: expect.stringMatching(
          /^API key đã được lưu nhưng chưa kiểm tra được với Gemini: Could not reach the Gemini API/,
        ),
      });
      expect((await client.get('/api/user/api-keys')).json()).toHaveLength(1);
    } finally {
      await unreachable.close();
    }
  });

  it('saves a key its provider cannot be asked about as unchecked, and asks at its first use: refused, a 400 that says so, never a 502', async () => {
    // The provider as the check finds it: away at first, then back.
    let provider: KeyCheck = { outcome: 'unchecked', reason: 'Could not reach the Gemini API' };
    const checks: string[] = [];
    const away = await createTestApp(
      { geminiApiKey: undefined },
      {
        checkApiKey: async (key) => {
          checks.push(key.apiKey);
          return provider;
        },
      },
    );
    const eventTypesIn = async (app: TestApp, executionId: string) =>
      (await app.store.readStream(`execution-${executionId}`)).events.map((event) => event.type);
    try {
      const client = as(away.app, (await signUp(away.app, 'Minh')).cookie);
      const added = await client.post('/api/user/api-keys', { keyName: 'Away', apiKey: 'AIza-away-1' });
      expect(added.statusCode).toBe(201);
      expect(added.json()).toMatchObject({ checkStatus: 'unchecked', check: { outcome: 'unchecked' } });
      expect((await client.get('/api/user/api-keys')).json()).toMatchObject([{ checkStatus: 'unchecked' }]);
      const { executionId, run } = await runner(client);

      // Still away at the first use: a 409 to try again later, nothing recorded.
      const still = await run();
      expect(still.statusCode, still.body).toBe(409);
      expect(still.json()).toMatchObject({ code: 'own_key_unchecked', retryable: true });
      expect(still.json().detail).toMatch(/^Chưa kiểm tra được API key "Away" với Gemini/);
      expect(await eventTypesIn(away, executionId)).toEqual(['ExecutionStarted']);

      // Back, and refusing it: a 400 naming the key, and the key is no longer used.
      provider = { outcome: 'rejected', reason: 'API key not valid' };
      const refused = await run();
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'own_key_rejected', status: 400 });
      expect(refused.json().detail).toMatch(/^Gemini không nhận API key "Away" đã lưu: API key not valid/);
      expect((await client.get('/api/user/api-keys')).json()).toMatchObject([
        { checkStatus: 'rejected', isActive: false },
      ]);
      expect(await eventTypesIn(away, executionId)).toEqual(['ExecutionStarted']);
      expect(checks).toEqual(['AIza-away-1', 'AIza-away-1', 'AIza-away-1']);

      // Another unchecked key the provider takes at its first use: used from then on, asked once.
      provider = { outcome: 'unchecked', reason: 'Could not reach the Gemini API' };
      await client.post('/api/user/api-keys', { keyName: 'Later', apiKey: 'AIza-later-1' });
      provider = { outcome: 'accepted' };
      const ran = await run();
      expect(ran.statusCode, ran.body).not.toBe(400);
      expect(ran.statusCode).not.toBe(409);
      const listed = (await client.get('/api/user/api-keys')).json() as {
        keyName: string;
        checkStatus: string;
      }[];
      expect(listed.find((key) => key.keyName === 'Later')?.checkStatus).toBe('accepted');
      await run();
      expect(checks.filter((key) => key === 'AIza-later-1')).toHaveLength(2);
    } finally {
      await away.close();
    }
  });

  it('adds, lists and deletes keys, showing name, type, active state and dates', async () => {
    const { client } = await newUser();
    expect((await client.get('/api/user/api-keys')).json()).toEqual([]);

    const added = await client.post('/api/user/api-keys', {
      keyName: '  Personal  ',
      apiKey: ' AIza-personal-0001 ',
      keyType: 'gemini',
    });
    expect(added.statusCode).toBe(201);
    const key = added.json();
    expect(Object.keys(key).sort()).toEqual([
      'baseUrl',
      'check',
      'checkStatus',
      'createdAt',
      'id',
      'isActive',
      'keyName',
      'keyType',
      'lastUsed',
    ]);
    expect(key).toMatchObject({
      keyName: 'Personal',
      keyType: 'gemini',
      baseUrl: null,
      isActive: true,
      lastUsed: null,
    });
    // Gemini was asked about the key (trimmed) before it was saved, and took it.
    expect(key.check).toEqual({ outcome: 'accepted', message: null });
    expect(fake.keyChecks.at(-1)).toBe('AIza-personal-0001');

    const second = (
      await client.post('/api/user/api-keys', {
        keyName: 'Work',
        apiKey: 'AIza-work-0002',
        keyType: 'gemini',
      })
    ).json();
    const listed = (await client.get('/api/user/api-keys')).json();
    expect(listed.map((k: { keyName: string }) => k.keyName)).toEqual(['Work', 'Personal']);

    expect((await client.delete(`/api/user/api-keys/${key.id}`)).statusCode).toBe(204);
    expect((await client.get('/api/user/api-keys')).json().map((k: { id: string }) => k.id)).toEqual([
      second.id,
    ]);
    expect((await client.delete(`/api/user/api-keys/${key.id}`)).statusCode).toBe(404);
  });

  it('refuses a blank name or key with the exact message, and other bad input with 400', async () => {
    const { client } = await newUser();
    const blanks = [
      { keyName: '', apiKey: 'AIza-x', keyType: 'gemini' },
      { keyName: 'Name', apiKey: '   ', keyType: 'gemini' },
      { keyName: ' \t ', apiKey: '', keyType: 'gemini' },
      { apiKey: 'AIza-x', keyType: 'gemini' },
      { keyName: 'Name', keyType: 'gemini' },
      {},
    ];
    for (const body of blanks) {
      const response = await client.post('/api/user/api-keys', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().message).toBe(FILL_IN_EVERYTHING);
      expect(response.json().issues).toBeInstanceOf(Array);
    }
    const others = [
      { keyName: 'Name', apiKey: 'AIza-x', keyType: 'mistral' },
      { keyName: 'Name', apiKey: 'AIza-x', keyType: 'gemini', baseUrl: 'https://llm.example.com/v1' },
      { keyName: 'Name', apiKey: 'AIza-x', keyType: 'openai-compatible' },
      { keyName: 'x'.repeat(201), apiKey: 'AIza-x', keyType: 'gemini' },
      { keyName: 'Name', apiKey: 'A'.repeat(1001), keyType: 'gemini' },
      { keyName: 42, apiKey: 'AIza-x', keyType: 'gemini' },
    ];
    for (const body of others) {
      expect((await client.post('/api/user/api-keys', body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await client.delete('/api/user/api-keys/not-a-uuid')).statusCode).toBe(400);
    expect((await client.get('/api/user/api-keys')).json()).toEqual([]);
  });

  it('keeps at most MAX_OWN_KEYS_PER_USER keys a user, however many are added at once', async () => {
    // From an address of its own: the file's other sign-ups use up the sign-up rate limit of the default one.
    const { cookie } = await signUp(t.app, 'Many', { remoteAddress: '10.9.8.7' });
    const client = as(t.app, cookie);
    const added = await Promise.all(
      Array.from({ length: MAX_OWN_KEYS_PER_USER + 5 }, (_, i) =>
        client.post('/api/user/api-keys', {
          keyName: `Key ${i}`,
          apiKey: `AIza-many-${i}`,
          keyType: 'gemini',
        }),
      ),
    );
    expect(added.filter((r) => r.statusCode === 201)).toHaveLength(MAX_OWN_KEYS_PER_USER);
    const refused = added.filter((r) => r.statusCode !== 201);
    expect(refused).toHaveLength(5);
    for (const r of refused) {
      expect(r.statusCode, r.body).toBe(400);
      expect(r.json().message).toBe(OWN_KEYS_USED_UP);
    }
    expect((await client.get('/api/user/api-keys')).json()).toHaveLength(MAX_OWN_KEYS_PER_USER);
  });

  it("never shows or deletes another user's keys: their ids give 404", async () => {
    const alice = await newUser('Alice');
    const bob = await newUser('Bob');
    const key = (
      await alice.client.post('/api/user/api-keys', {
        keyName: 'Alice key',
        apiKey: 'AIza-alice-0003',
        keyType: 'gemini',
      })
    ).json();
    expect((await bob.client.get('/api/user/api-keys')).json()).toEqual([]);
    expect((await bob.client.delete(`/api/user/api-keys/${key.id}`)).statusCode).toBe(404);
    expect((await alice.client.get('/api/user/api-keys')).json().map((k: { id: string }) => k.id)).toEqual([
      key.id,
    ]);
    // Bob's usage is his own: Alice's key does not make him unlimited.
    expect((await bob.client.get('/api/user/usage')).json()).toEqual({ remainingSteps: 2, usedSteps: 0 });
  });

  it('keeps the key out of every answer and stores it only sealed', async () => {
    const { client, userId } = await newUser();
    const apiKey = 'AIzaSy-secret-key-never-shown-0004';
    const answers = [
      await client.post('/api/user/api-keys', { keyName: 'Sealed', apiKey, keyType: 'gemini' }),
      await client.get('/api/user/api-keys'),
      await client.get('/api/user/usage'),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBeLessThan(300);
      expect(answer.body).not.toContain(apiKey);
      expect(answer.body).not.toContain('secret-key');
      expect(answer.body).not.toContain('encrypted');
    }
    const [row] = await t.db.sql<{ encryptedApiKey: string }[]>`
      SELECT encrypted_api_key FROM user_api_keys WHERE user_id = ${userId}`;
    expect(row!.encryptedApiKey).not.toContain(apiKey);
    expect(row!.encryptedApiKey).not.toContain('secret-key');
    expect(createOwnKeyCipher(TEST_APP_SECRET).decrypt(row!.encryptedApiKey)).toBe(apiKey);
  });

  it('counts runs without an own key and refuses the one past the allowance before it starts', async () => {
    const { client } = await newUser();
    const { executionId, run } = await runner(client);
    expect((await client.get('/api/user/usage')).json()).toEqual({ remainingSteps: 2, usedSteps: 0 });

    expect((await run()).statusCode).toBe(200);
    expect((await client.get('/api/user/usage')).json()).toEqual({ remainingSteps: 1, usedSteps: 1 });
    expect((await run()).statusCode).toBe(200);
    expect((await client.get('/api/user/usage')).json()).toEqual({ remainingSteps: 0, usedSteps: 2 });

    const eventsBefore = await eventTypes(executionId);
    const refused = await run();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toContain('2 steps miễn phí');
    expect(refused.json().message).toContain('API Keys');
    expect(await eventTypes(executionId)).toEqual(eventsBefore);
    expect(eventsBefore.filter((type) => type === 'StepRunStarted')).toHaveLength(2);
    const execution = (await client.get(`/api/executions/${executionId}`)).json();
    expect(execution.runs).toHaveLength(2);
    expect((await client.get('/api/user/usage')).json()).toEqual({ remainingSteps: 0, usedSteps: 2 });
    // The offline model answered: nothing reached Gemini.
    expect(fake.requests).toEqual([]);
  });

  it('runs beyond the allowance on the own key, through Gemini with that key, unlimited', async () => {
    const { client } = await newUser();
    const { executionId, run } = await runner(client);
    await run();
    await run();
    expect((await run()).statusCode).toBe(429);

    const apiKey = 'AIza-own-key-of-this-user-0005';
    const key = (
      await client.post('/api/user/api-keys', { keyName: 'Mine', apiKey, keyType: 'gemini' })
    ).json();
    expect((await client.get('/api/user/usage')).json()).toEqual({ remainingSteps: -1, usedSteps: 2 });

    for (let i = 0; i < 3; i++) {
      const response = await run();
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().results[0].result).toContain('Fake Gemini answer');
    }
    expect(fake.requests).toHaveLength(3);
    expect(fake.requests.map((request) => request.apiKey)).toEqual([apiKey, apiKey, apiKey]);
    // Own-key runs are not counted against the allowance.
    expect((await client.get('/api/user/usage')).json()).toEqual({ remainingSteps: -1, usedSteps: 2 });

    const { events } = await t.store.readStream(`execution-${executionId}`);
    const keySources = events
      .filter((event) => event.type === 'StepRunStarted')
      .map((event) => (event.data as { keySource: string }).keySource);
    expect(keySources).toEqual(['offline', 'offline', 'own', 'own', 'own']);
    expect(JSON.stringify(events)).not.toContain(apiKey);

    const [listed] = (await client.get('/api/user/api-keys')).json();
    expect(listed.lastUsed).not.toBeNull();

    // Without the key the allowance applies again.
    await client.delete(`/api/user/api-keys/${key.id}`);
    expect((await client.get('/api/user/usage')).json()).toEqual({ remainingSteps: 0, usedSteps: 2 });
    expect((await run()).statusCode).toBe(429);
  });

  it('serves /api-keys as a page of the web app, not as an unknown API call', async () => {
    const { client } = await newUser();
    const page = await client.get('/api-keys');
    // 200 with the built app, 503 "not built yet" without it; never the API's 404.
    expect([200, 503]).toContain(page.statusCode);
    expect(page.headers['content-type']).toMatch(/text\/(html|plain)/);
    expect((await client.get('/api/no-such-call')).statusCode).toBe(404);
  });

  it('uses the newest active key and marks only it as used', async () => {
    const { client } = await newUser();
    const { run } = await runner(client);
    await client.post('/api/user/api-keys', { keyName: 'Old', apiKey: 'AIza-old-0006', keyType: 'gemini' });
    await client.post('/api/user/api-keys', { keyName: 'New', apiKey: 'AIza-new-0007', keyType: 'gemini' });
    expect((await run()).statusCode).toBe(200);
    expect(fake.requests.map((request) => request.apiKey)).toEqual(['AIza-new-0007']);
    const listed = (await client.get('/api/user/api-keys')).json();
    expect(
      listed.map((k: { keyName: string; lastUsed: string | null }) => [k.keyName, k.lastUsed !== null]),
    ).toEqual([
      ['New', true],
      ['Old', false],
    ]);
  });
});
