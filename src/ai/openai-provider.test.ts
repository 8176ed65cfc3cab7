import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { echoPrompt, type FakeOpenAI, startFakeOpenAI } from '../../test/support/fake-openai';
import { failureOf as failureOfProvider } from '../../test/support/model-failure';
import { type ModelProvider, STOPPED_MESSAGE } from './model-provider';
import { createOpenAIProvider } from './openai-provider';
import { structuredOutputFor } from './structured-output';

let fake: FakeOpenAI;
let openai: ModelProvider;

beforeAll(async () => {
  fake = await startFakeOpenAI({ rejectedKeys: ['bad-key'] });
  openai = createOpenAIProvider({ apiKey: 'test-key-1', model: 'gpt-4.1-mini', baseUrl: fake.url });
});
afterAll(() => fake.close());
afterEach(() => {
  fake.requests.length = 0;
  fake.cancelled.length = 0;
  fake.respondWith(echoPrompt);
});

const failureOf = (provider: ModelProvider = openai) => failureOfProvider(provider);

describe('openai provider (real SDK against the fake OpenAI API)', () => {
  it('streams the answer in order, joining to the final text, with the usage', async () => {
    const text = 'One two three four five six seven eight nine ten eleven twelve.';
    fake.respondWith(() => ({ text }));
    const stream = openai.stream({ system: 'Be brief.', prompt: 'Count to twelve' });
    const chunks: string[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    const answer = await stream.final;

    expect(chunks).toEqual(['One two three ', 'four five six ', 'seven eight nine ', 'ten eleven twelve.']);
    expect(answer.text).toBe(text);
    expect(answer.usage).toEqual({
      inputTokens: Math.ceil('Be brief.\nCount to twelve'.length / 4),
      outputTokens: 16,
    });
  });

  it('sends the key, the model, the system message and the prompt as a streamed chat completion', async () => {
    await openai.stream({ system: 'Be brief.', prompt: 'Hello there' }).final;
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/chat/completions', apiKey: 'test-key-1' });
    expect(request!.body).toMatchObject({
      model: 'gpt-4.1-mini',
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hello there' },
      ],
    });
    expect(request!.body.response_format).toBeUndefined();
    // No retries by the SDK: our own policy decides.
    expect(request!.headers['x-stainless-retry-count']).toBe('0');
  });

  it('leaves out an empty system message, and gives the answer to a consumer that never iterates', async () => {
    fake.respondWith(() => ({ text: 'Only the final matters here.' }));
    await expect(openai.stream({ system: '  ', prompt: 'x' }).final).resolves.toMatchObject({
      text: 'Only the final matters here.',
    });
    expect(fake.requests[0]!.body.messages).toEqual([{ role: 'user', content: 'x' }]);
  });

  it('asks for JSON with the schema as response_format in json mode', async () => {
    const shape = structuredOutputFor('multiple_choice', ['Yes', 'No']);
    fake.respondWith(() => ({ text: '{"choice": "Yes", "reason": "because"}' }));
    const answer = await openai.stream({ system: shape.instruction, prompt: 'Pick', json: shape.json! })
      .final;

    expect(JSON.parse(answer.text)).toEqual({ choice: 'Yes', reason: 'because' });
    expect(fake.requests[0]!.body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'answer', schema: shape.json!.schema, strict: false },
    });
  });

  it('passes on JSON that ignores the schema as it is: checking it is for the caller', async () => {
    const shape = structuredOutputFor('multiple_choice', ['Yes', 'No']);
    fake.respondWith(() => ({ text: '{"colour": "blue"}' }));
    const answer = await openai.stream({ system: '', prompt: 'Pick', json: shape.json! }).final;
    expect(answer.text).toBe('{"colour": "blue"}');
  });

  it('maps a refused key (401 and 403) to a non-retryable error', async () => {
    const refusedKey = createOpenAIProvider({ apiKey: 'bad-key', model: 'gpt-4.1-mini', baseUrl: fake.url });
    expect(await failureOf(refusedKey)).toMatchObject({
      message:
        'The OpenAI API refused the key (401). Check that the API key is correct and allowed to use "gpt-4.1-mini".',
      retryable: false,
      status: 401,
    });
    fake.respondWith(() => ({ status: 403, message: 'Country, region, or territory not supported' }));
    expect(await failureOf()).toMatchObject({ retryable: false, status: 403 });
  });

  it('maps an unknown model (404 model_not_found) to a non-retryable error naming it', async () => {
    fake.respondWith(() => ({
      status: 404,
      message: 'The model `gpt-4.1-mini` does not exist or you do not have access to it.',
      code: 'model_not_found',
    }));
    const error = await failureOf();
    expect(error).toMatchObject({ retryable: false, status: 404 });
    expect(error.message).toBe(
      'The OpenAI model "gpt-4.1-mini" was not found (404). Check the model name. The model `gpt-4.1-mini` does not exist or you do not have access to it.',
    );
  });

  it('maps a rate limit (429) to a retryable error, and an exhausted quota to a final one', async () => {
    fake.respondWith(() => ({
      status: 429,
      message: 'Rate limit reached for requests.',
      code: 'rate_limit_exceeded',
    }));
    const limited = await failureOf();
    expect(limited).toMatchObject({ retryable: true, status: 429 });
    expect(limited.message).toMatch(/^The OpenAI API rate limit was reached \(429\)\. .*Rate limit reached/);

    fake.respondWith(() => ({
      status: 429,
      message: 'You exceeded your current quota.',
      code: 'insufficient_quota',
    }));
    const broke = await failureOf();
    expect(broke).toMatchObject({ retryable: false, status: 429 });
    expect(broke.message).toMatch(/^The OpenAI account has no quota left \(429\)/);
  });

  it('maps a prompt over the context window (400 context_length_exceeded) to its own message', async () => {
    fake.respondWith(() => ({
      status: 400,
      message:
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 200000 tokens.",
      code: 'context_length_exceeded',
    }));
    const error = await failureOf();
    expect(error).toMatchObject({ retryable: false, status: 400 });
    expect(error.message).toMatch(
      /^The prompt is too long for the OpenAI model "gpt-4.1-mini" \(400\)\. Shorten/,
    );
  });

  it('maps any other 400 to the API’s own words, and a 5xx to a retryable error', async () => {
    fake.respondWith(() => ({ status: 400, message: "Invalid schema for response_format 'answer'." }));
    expect(await failureOf()).toMatchObject({
      message: "The OpenAI API refused the request (400): Invalid schema for response_format 'answer'.",
      retryable: false,
    });
    fake.respondWith(() => ({ status: 503, message: 'The server is overloaded.' }));
    expect(await failureOf()).toMatchObject({
      message: 'The OpenAI API is unavailable right now (503). Try again. The server is overloaded.',
      retryable: true,
      status: 503,
    });
  });

  it('fails with a refusal, from the refusal field or the content filter, that is not worth retrying', async () => {
    fake.respondWith(() => ({ text: '', refusal: "I'm sorry, I can't help with that." }));
    expect(await failureOf()).toMatchObject({
      message:
        "The OpenAI model declined to answer (I'm sorry, I can't help with that.). Rephrase the prompt or its input.",
      retryable: false,
    });
    fake.respondWith(() => ({ text: 'Half an ans', finishReason: 'content_filter' }));
    expect(await failureOf()).toMatchObject({
      message: 'The OpenAI model declined to answer (content filter). Rephrase the prompt or its input.',
      retryable: false,
    });
  });

  it('reports an empty answer and an error inside the stream as retryable', async () => {
    fake.respondWith(() => ({ text: '' }));
    expect(await failureOf()).toMatchObject({
      message: 'The OpenAI API returned an empty answer. Try again.',
      retryable: true,
    });
    fake.respondWith(() => ({
      text: 'a b c d',
      streamError: { message: 'The server had an error.', type: 'server_error' },
    }));
    expect(await failureOf()).toMatchObject({
      message: 'The OpenAI API broke off the answer: The server had an error. Try again.',
      retryable: true,
    });
  });

  it('stops mid-stream when the signal aborts: the request is cut and the stream fails with Stopped', async () => {
    fake.respondWith(() => ({ text: 'a b c d e f g h i', stallAfter: 1 }));
    const controller = new AbortController();
    const stream = openai.stream({ system: '', prompt: 'slow', signal: controller.signal });
    const seen: string[] = [];
    const reading = (async () => {
      for await (const chunk of stream) {
        seen.push(chunk);
        controller.abort();
      }
    })();
    await expect(reading).rejects.toThrow(STOPPED_MESSAGE);
    await expect(stream.final).rejects.toMatchObject({ message: STOPPED_MESSAGE, retryable: false });
    expect(seen).toEqual(['a b c ']);
    await fake.untilCancelled(1);
    expect(fake.cancelled.map((request) => request.body.messages?.at(-1)?.content)).toEqual(['slow']);
  });

  it('gives up after the timeout with a retryable error, cutting the request', async () => {
    fake.respondWith(() => ({ text: 'a b c d e f g h i', stallAfter: 1 }));
    const impatient = createOpenAIProvider({
      apiKey: 'k',
      model: 'gpt-4.1-mini',
      timeoutMs: 100,
      baseUrl: fake.url,
    });
    const error = await failureOf(impatient);
    expect(error).toMatchObject({
      message: 'The OpenAI API did not finish answering within 100 ms. Try again.',
      retryable: true,
    });
    await fake.untilCancelled(1);
  });

  it('says which address it cannot reach', async () => {
    const closed = await startFakeOpenAI();
    await closed.close();
    const error = await failureOf(createOpenAIProvider({ apiKey: 'k', model: 'm', baseUrl: closed.url }));
    expect(error.retryable).toBe(true);
    expect(error.message).toBe(
      `Cannot reach ${closed.url} (ECONNREFUSED). Check the OpenAI base URL and try again.`,
    );
  });
});

describe('fake OpenAI API', () => {
  it('lists its models to the SDK, and refuses a rejected key there too', async () => {
    const client = new OpenAI({ apiKey: 'test-key-1', baseURL: fake.url, maxRetries: 0 });
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toEqual(['gpt-4.1-mini', 'gpt-4.1']);
    expect(fake.requests).toMatchObject([{ method: 'GET', path: '/v1/models', apiKey: 'test-key-1' }]);

    const refused = new OpenAI({ apiKey: 'bad-key', baseURL: fake.url, maxRetries: 0 });
    await expect(refused.models.list()).rejects.toMatchObject({ status: 401, code: 'invalid_api_key' });
  });
});
