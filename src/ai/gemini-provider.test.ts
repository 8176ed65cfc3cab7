import { GoogleGenAI } from '@google/genai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { echoPrompt, type FakeGemini, startFakeGemini } from '../../test/support/fake-gemini';
import { failureOf as failureOfProvider } from '../../test/support/model-failure';
import { createGeminiProvider } from './gemini-provider';
import { type ModelProvider, STOPPED_MESSAGE } from './model-provider';
import { resolveProvider } from './resolve-provider';
import { structuredOutputFor } from './structured-output';

let fake: FakeGemini;
let gemini: ModelProvider;

beforeAll(async () => {
  fake = await startFakeGemini();
  gemini = createGeminiProvider({ apiKey: 'test-key-1', model: 'gemini-2.5-flash', baseUrl: fake.url });
});
afterAll(() => fake.close());
afterEach(() => {
  fake.requests.length = 0;
  fake.respondWith(echoPrompt);
});

const failureOf = failureOfProvider;

describe('gemini provider (real SDK against the fake Gemini API)', () => {
  it('streams the answer in order, joining to the final text, with the usage', async () => {
    const text = 'One two three four five six seven eight nine ten eleven twelve.';
    fake.respondWith(() => ({ text }));
    const stream = gemini.stream({ system: 'Be brief.', prompt: 'Count to twelve' });
    const chunks: string[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    const answer = await stream.final;

    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.join('')).toBe(text);
    expect(answer.text).toBe(text);
    expect(answer.usage).toEqual({ inputTokens: Math.ceil('Count to twelve'.length / 4), outputTokens: 16 });
  });

  it('calls the streaming endpoint with the key, the model, the prompt and the system instruction', async () => {
    await gemini.stream({ system: 'Be brief.', prompt: 'Hello there' }).final;
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request).toMatchObject({
      path: '/v1beta/models/gemini-2.5-flash:streamGenerateContent',
      model: 'gemini-2.5-flash',
      streaming: true,
      apiKey: 'test-key-1',
    });
    expect(request!.body.contents).toEqual([{ role: 'user', parts: [{ text: 'Hello there' }] }]);
    expect(request!.body.systemInstruction).toMatchObject({ parts: [{ text: 'Be brief.' }] });
    expect(request!.body.generationConfig?.responseMimeType).toBeUndefined();
  });

  it('gives the final answer to a consumer that never iterates', async () => {
    fake.respondWith(() => ({ text: 'Only the final matters here.' }));
    await expect(gemini.stream({ system: '', prompt: 'x' }).final).resolves.toMatchObject({
      text: 'Only the final matters here.',
    });
  });

  it('asks for JSON with the schema in json mode', async () => {
    const shape = structuredOutputFor('multiple_choice', ['Yes', 'No']);
    fake.respondWith(() => ({ text: '{"choice": "Yes", "reason": "because"}' }));
    const answer = await gemini.stream({ system: shape.instruction, prompt: 'Pick', json: shape.json! })
      .final;

    expect(JSON.parse(answer.text)).toEqual({ choice: 'Yes', reason: 'because' });
    expect(fake.requests[0]!.body.generationConfig).toMatchObject({
      responseMimeType: 'application/json',
      responseJsonSchema: shape.json!.schema,
    });
  });

  it('maps a rejected key (401 and 403) to a non-retryable error', async () => {
    for (const status of [401, 403]) {
      fake.respondWith(() => ({ status, message: 'Method doesn\u2019t allow unregistered callers.' }));
      const error = await failureOf(gemini);
      expect(error.message).toMatch(/^The Gemini API rejected the key \(401\/403\)/);
      expect(error).toMatchObject({ retryable: false, status });
    }
  });

  it("treats Google's 400 API_KEY_INVALID as a rejected key too", async () => {
    fake.respondWith(() => ({ status: 400, message: 'API key not valid. Please pass a valid API key.' }));
    const error = await failureOf(gemini);
    expect(error.message).toMatch(/rejected the key/);
    expect(error.retryable).toBe(false);
  });

  it('maps a quota or rate limit (429) to a retryable error', async () => {
    fake.respondWith(() => ({ status: 429, message: 'Resource has been exhausted (e.g. check quota).' }));
    const error = await failureOf(gemini);
    expect(error).toMatchObject({ retryable: true, status: 429 });
    expect(error.message).toMatch(/quota or rate limit was reached \(429\).*Resource has been exhausted/);
  });

  it('maps an unavailable service (503) to a retryable error and a bad request (400) to a final one', async () => {
    fake.respondWith(() => ({ status: 503, message: 'The model is overloaded.' }));
    expect(await failureOf(gemini)).toMatchObject({ retryable: true, status: 503 });
    fake.respondWith(() => ({ status: 400, message: 'Invalid JSON schema.' }));
    const error = await failureOf(gemini);
    expect(error).toMatchObject({ retryable: false, status: 400 });
    expect(error.message).toBe('The Gemini API refused the request (400): Invalid JSON schema.');
  });

  it('stops with the Stopped error when the signal aborts mid-stream', async () => {
    fake.respondWith(() => ({ text: 'a b c d e f g h i j k l m n o p', chunkDelayMs: 200 }));
    const controller = new AbortController();
    const stream = gemini.stream({ system: '', prompt: 'slow', signal: controller.signal });
    const seen: string[] = [];
    const started = performance.now();
    const reading = (async () => {
      for await (const chunk of stream) {
        seen.push(chunk);
        controller.abort();
      }
    })();
    await expect(reading).rejects.toThrow(STOPPED_MESSAGE);
    await expect(stream.final).rejects.toMatchObject({ message: STOPPED_MESSAGE, retryable: false });
    expect(seen).toEqual(['a b c ']);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('gives up after the timeout with a retryable error', async () => {
    fake.respondWith(() => ({ text: 'a b c d e f g h i', chunkDelayMs: 300 }));
    const impatient = createGeminiProvider({
      apiKey: 'k',
      model: 'gemini-2.5-flash',
      timeoutMs: 100,
      baseUrl: fake.url,
    });
    const error = await failureOf(impatient);
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/did not finish answering within/);
  });

  it('reports an unreachable API as retryable', async () => {
    const closed = await startFakeGemini();
    await closed.close();
    const error = await failureOf(createGeminiProvider({ apiKey: 'k', model: 'm', baseUrl: closed.url }));
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/^Could not reach the Gemini API/);
  });

  it('honours GOOGLE_GEMINI_BASE_URL when no base URL is given', async () => {
    const previous = process.env.GOOGLE_GEMINI_BASE_URL;
    process.env.GOOGLE_GEMINI_BASE_URL = fake.url;
    try {
      const fromEnvironment = createGeminiProvider({ apiKey: 'env-key', model: 'gemini-2.5-flash' });
      await fromEnvironment.stream({ system: '', prompt: 'hi' }).final;
    } finally {
      if (previous === undefined) delete process.env.GOOGLE_GEMINI_BASE_URL;
      else process.env.GOOGLE_GEMINI_BASE_URL = previous;
    }
    expect(fake.requests.map((r) => r.apiKey)).toEqual(['env-key']);
  });
});

describe('resolveProvider', () => {
  const base = { model: 'gemini-2.5-flash' };

  it("prefers the user's own key", async () => {
    const { provider, keySource } = resolveProvider({
      ...base,
      ownKey: 'own-key',
      defaultKey: 'server-key',
      baseUrl: fake.url,
    });
    expect(keySource).toBe('own');
    expect(provider).toMatchObject({ kind: 'gemini', model: 'gemini-2.5-flash' });
    await provider.stream({ system: '', prompt: 'hi' }).final;
    expect(fake.requests.map((r) => r.apiKey)).toEqual(['own-key']);
  });

  it("falls back to the server's key", async () => {
    const { provider, keySource } = resolveProvider({
      ...base,
      ownKey: null,
      defaultKey: 'server-key',
      baseUrl: fake.url,
    });
    expect(keySource).toBe('default');
    await provider.stream({ system: '', prompt: 'hi' }).final;
    expect(fake.requests.map((r) => r.apiKey)).toEqual(['server-key']);
  });

  it('falls back to the offline model without any key (blank keys count as none)', () => {
    for (const keys of [
      { ownKey: null, defaultKey: undefined },
      { ownKey: '  ', defaultKey: '' },
    ]) {
      const { provider, keySource } = resolveProvider({ ...base, ...keys });
      expect(keySource).toBe('offline');
      expect(provider).toMatchObject({ kind: 'offline', model: 'offline' });
    }
    expect(fake.requests).toHaveLength(0);
  });
});

describe('fake Gemini API', () => {
  it("answers the SDK's non-streaming generateContent with the echo answer and the usage", async () => {
    const client = new GoogleGenAI({
      apiKey: 'plain-key',
      vertexai: false,
      httpOptions: { baseUrl: fake.url },
    });
    const prompt = 'Tell me about the fake Gemini server and its endpoints, please';
    const response = await client.models.generateContent({ model: 'gemini-2.5-flash', contents: prompt });
    expect(response.text).toBe(`Fake Gemini answer to: ${prompt.slice(0, 40)}`);
    expect(response.usageMetadata?.promptTokenCount).toBe(Math.ceil(prompt.length / 4));
    expect(fake.requests).toMatchObject([
      { path: '/v1beta/models/gemini-2.5-flash:generateContent', streaming: false, apiKey: 'plain-key' },
    ]);
  });

  it("answers an unknown route with 404 in Google's error shape", async () => {
    const response = await fetch(`${fake.url}/v1beta/models`, { method: 'POST' });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 404, status: 'NOT_FOUND' } });
    expect(fake.requests).toHaveLength(0);
  });
});
