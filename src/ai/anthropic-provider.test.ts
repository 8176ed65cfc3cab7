import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  echoPrompt,
  type FakeAnthropic,
  startFakeAnthropic,
  systemOf,
} from '../../test/support/fake-anthropic';
import { failureOf as failureOfProvider } from '../../test/support/model-failure';
import { createAnthropicProvider } from './anthropic-provider';
import { jsonInstruction } from './json-instruction';
import { type ModelProvider, STOPPED_MESSAGE } from './model-provider';
import { structuredOutputFor } from './structured-output';

let fake: FakeAnthropic;
let claude: ModelProvider;

beforeAll(async () => {
  fake = await startFakeAnthropic({ rejectedKeys: ['bad-key'] });
  claude = createAnthropicProvider({ apiKey: 'test-key-1', model: 'claude-sonnet-5', baseUrl: fake.url });
});
afterAll(() => fake.close());
afterEach(() => {
  fake.requests.length = 0;
  fake.cancelled.length = 0;
  fake.respondWith(echoPrompt);
});

const failureOf = (provider: ModelProvider = claude) => failureOfProvider(provider);

describe('anthropic provider (real SDK against the fake Anthropic API)', () => {
  it('streams the text deltas in order, joining to the final text, with the usage', async () => {
    const text = 'One two three four five six seven eight nine ten eleven twelve.';
    fake.respondWith(() => ({ text }));
    const stream = claude.stream({ system: 'Be brief.', prompt: 'Count to twelve' });
    const chunks: string[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    const answer = await stream.final;

    expect(chunks).toEqual(['One two three ', 'four five six ', 'seven eight nine ', 'ten eleven twelve.']);
    expect(answer.text).toBe(text);
    // Input from message_start, output from the last message_delta.
    expect(answer.usage).toEqual({
      inputTokens: Math.ceil('Be brief.\nCount to twelve'.length / 4),
      outputTokens: 16,
    });
  });

  it('sends the key, the model, max_tokens, the system prompt and the prompt as a streamed message', async () => {
    await claude.stream({ system: 'Be brief.', prompt: 'Hello there' }).final;
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/messages', apiKey: 'test-key-1' });
    expect(request!.body).toEqual({
      model: 'claude-sonnet-5',
      max_tokens: 8192,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Hello there' }],
      stream: true,
    });
    // No retries by the SDK: our own policy decides.
    expect(request!.headers['x-stainless-retry-count']).toBe('0');
  });

  it('leaves out an empty system prompt, honours maxTokens, and answers a consumer that never iterates', async () => {
    fake.respondWith(() => ({ text: 'Only the final matters here.' }));
    const brief = createAnthropicProvider({
      apiKey: 'k',
      model: 'claude-haiku-4-5',
      maxTokens: 256,
      baseUrl: fake.url,
    });
    await expect(brief.stream({ system: ' ', prompt: 'x' }).final).resolves.toMatchObject({
      text: 'Only the final matters here.',
    });
    expect(fake.requests[0]!.body.system).toBeUndefined();
    expect(fake.requests[0]!.body.max_tokens).toBe(256);
  });

  it('puts the JSON schema into the system prompt in json mode, after the given system text', async () => {
    const shape = structuredOutputFor('multiple_choice', ['Yes', 'No']);
    fake.respondWith(() => ({ text: '{"choice": "Yes", "reason": "because"}' }));
    const answer = await claude.stream({ system: shape.instruction, prompt: 'Pick', json: shape.json! })
      .final;

    expect(JSON.parse(answer.text)).toEqual({ choice: 'Yes', reason: 'because' });
    const system = systemOf(fake.requests[0]!.body);
    expect(system).toBe(`${shape.instruction}\n\n${jsonInstruction(shape.json!.schema)}`);
    expect(system).toContain('Answer with JSON only');
    expect(system).toContain(JSON.stringify(shape.json!.schema, null, 2));
  });

  it('passes on JSON that ignores the schema as it is: checking it is for the caller', async () => {
    const shape = structuredOutputFor('multiple_choice', ['Yes', 'No']);
    fake.respondWith(() => ({ text: 'Sure! {"colour": "blue"}' }));
    const answer = await claude.stream({ system: '', prompt: 'Pick', json: shape.json! }).final;
    expect(answer.text).toBe('Sure! {"colour": "blue"}');
    expect(systemOf(fake.requests[0]!.body)).toBe(jsonInstruction(shape.json!.schema));
  });

  it('maps a refused key (401 and 403) to a non-retryable error', async () => {
    const refusedKey = createAnthropicProvider({
      apiKey: 'bad-key',
      model: 'claude-sonnet-5',
      baseUrl: fake.url,
    });
    expect(await failureOf(refusedKey)).toMatchObject({
      message:
        'The Anthropic API refused the key (401). Check that the API key is correct and allowed to use "claude-sonnet-5".',
      retryable: false,
      status: 401,
    });
    fake.respondWith(() => ({
      status: 403,
      message: 'Your API key does not have permission to use the specified resource.',
    }));
    expect(await failureOf()).toMatchObject({ retryable: false, status: 403 });
  });

  it('maps an unknown model (404) to a non-retryable error naming it', async () => {
    fake.respondWith(() => ({ status: 404, message: 'model: claude-sonnet-5' }));
    expect(await failureOf()).toMatchObject({
      message:
        'The Anthropic model "claude-sonnet-5" was not found (404). Check the model name. model: claude-sonnet-5',
      retryable: false,
      status: 404,
    });
  });

  it('maps a rate limit (429) to a retryable error', async () => {
    fake.respondWith(() => ({
      status: 429,
      message: 'Number of request tokens has exceeded your per-minute rate limit',
    }));
    const error = await failureOf();
    expect(error).toMatchObject({ retryable: true, status: 429 });
    expect(error.message).toMatch(
      /^The Anthropic API rate limit was reached \(429\)\. Wait a moment and try again\./,
    );
  });

  it('maps "prompt is too long" (400) to its own message', async () => {
    fake.respondWith(() => ({ status: 400, message: 'prompt is too long: 215000 tokens > 200000 maximum' }));
    expect(await failureOf()).toMatchObject({
      message:
        'The prompt is too long for the Anthropic model "claude-sonnet-5" (400). Shorten the input. prompt is too long: 215000 tokens > 200000 maximum',
      retryable: false,
      status: 400,
    });
  });

  it('maps any other 400 to the API’s own words, and a 5xx (529 overloaded too) to a retryable error', async () => {
    fake.respondWith(() => ({ status: 400, message: 'max_tokens: Field required' }));
    expect(await failureOf()).toMatchObject({
      message: 'The Anthropic API refused the request (400): max_tokens: Field required',
      retryable: false,
    });
    for (const status of [500, 529]) {
      fake.respondWith(() => ({ status, message: 'Overloaded' }));
      expect(await failureOf()).toMatchObject({
        message: `The Anthropic API is unavailable right now (${status}). Try again. Overloaded`,
        retryable: true,
        status,
      });
    }
  });

  it('fails with a refusal (stop_reason refusal) that is not worth retrying', async () => {
    fake.respondWith(() => ({ text: 'I cannot', stopReason: 'refusal' }));
    expect(await failureOf()).toMatchObject({
      message: 'The Anthropic model declined to answer (refusal). Rephrase the prompt or its input.',
      retryable: false,
    });
  });

  it('reports an empty answer and an overload inside the stream as retryable', async () => {
    fake.respondWith(() => ({ text: '' }));
    expect(await failureOf()).toMatchObject({
      message: 'The Anthropic API returned an empty answer. Try again.',
      retryable: true,
    });
    fake.respondWith(() => ({
      text: 'a b c d',
      streamError: { type: 'overloaded_error', message: 'Overloaded' },
    }));
    expect(await failureOf()).toMatchObject({
      message: 'The Anthropic API is unavailable right now (529). Try again. Overloaded',
      retryable: true,
    });
  });

  it('stops mid-stream when the signal aborts: the request is cut and the stream fails with Stopped', async () => {
    fake.respondWith(() => ({ text: 'a b c d e f g h i', stallAfter: 1 }));
    const controller = new AbortController();
    const stream = claude.stream({ system: '', prompt: 'slow', signal: controller.signal });
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
    expect(fake.cancelled.map((request) => request.body.messages?.[0]?.content)).toEqual(['slow']);
  });

  it('fails with Stopped at once when the signal has already aborted, without calling the API', async () => {
    const stream = claude.stream({ system: '', prompt: 'never', signal: AbortSignal.abort() });
    await expect(stream.final).rejects.toMatchObject({ message: STOPPED_MESSAGE });
    expect(fake.requests).toHaveLength(0);
  });

  it('gives up after the timeout with a retryable error, cutting the request', async () => {
    fake.respondWith(() => ({ text: 'a b c d e f g h i', stallAfter: 1 }));
    const impatient = createAnthropicProvider({
      apiKey: 'k',
      model: 'claude-sonnet-5',
      timeoutMs: 100,
      baseUrl: fake.url,
    });
    expect(await failureOf(impatient)).toMatchObject({
      message: 'The Anthropic API did not finish answering within 100 ms. Try again.',
      retryable: true,
    });
    await fake.untilCancelled(1);
  });

  it('says which address it cannot reach', async () => {
    const closed = await startFakeAnthropic();
    await closed.close();
    const error = await failureOf(createAnthropicProvider({ apiKey: 'k', model: 'm', baseUrl: closed.url }));
    expect(error.retryable).toBe(true);
    expect(error.message).toBe(
      `Cannot reach ${closed.url} (ECONNREFUSED). Check the Anthropic base URL and try again.`,
    );
  });
});
