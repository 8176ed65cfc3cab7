import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { schemaParameterSent, withJsonInstruction } from './json-instruction';
import type { ModelProvider, ModelUsage } from './model-provider';
import { callSignal, createModelStream } from './model-stream';
import {
  connectionReason,
  emptyAnswer,
  explainProviderFailure,
  refused,
  type SdkFailure,
} from './provider-failure';

export interface OpenAIProviderOptions {
  apiKey: string;
  model: string;
  /**
   * Where the API lives, with its version path (`https://api.openai.com/v1`, or any server that speaks the
   * Chat Completions API). Without it the SDK itself reads OPENAI_BASE_URL, then falls back to OpenAI's.
   */
  baseUrl?: string;
  /** Bounds the whole call, first byte to last chunk. */
  timeoutMs?: number;
  /** A redirect fails the call instead of being followed: for an address a user gave (its target was never allowed). */
  noRedirects?: boolean;
}

/** The OpenAI SDK's error classes, sorted into what both SDKs share. Subclasses come before APIError. */
export function openAIFailure(error: unknown): SdkFailure | null {
  if (error instanceof APIUserAbortError) return { kind: 'aborted' };
  if (error instanceof APIConnectionTimeoutError) return { kind: 'timeout' };
  if (error instanceof APIConnectionError)
    return { kind: 'connection', reason: connectionReason(error.cause) };
  if (error instanceof APIError) {
    // `error.error` is the `error` object of the body: {message, type, code, param}.
    const body = error.error as { message?: unknown } | undefined;
    const detail = typeof body?.message === 'string' ? body.message : error.message;
    const code = typeof error.code === 'string' ? error.code : null;
    // A status-less APIError is an error the API sent inside the stream.
    if (error.status === undefined) return { kind: 'stream', detail, code };
    return { kind: 'status', status: error.status, detail, code };
  }
  return null;
}

function usageOf(chunk: ChatCompletionChunk): ModelUsage | null {
  if (!chunk.usage) return null;
  return { inputTokens: chunk.usage.prompt_tokens, outputTokens: chunk.usage.completion_tokens };
}

export function createOpenAIProvider({
  apiKey,
  model,
  baseUrl,
  timeoutMs = 120_000,
  noRedirects = false,
}: OpenAIProviderOptions): ModelProvider {
  // maxRetries 0: whether and when to try again is our retry policy's call, not the SDK's.
  const client = new OpenAI({
    apiKey,
    maxRetries: 0,
    ...(baseUrl ? { baseURL: baseUrl } : {}),
    ...(noRedirects ? { fetchOptions: { redirect: 'error' as const } } : {}),
  });

  return {
    kind: 'openai',
    model,
    // Some OpenAI-compatible servers take response_format and ignore it, or refuse it: a probe tells.
    schemaProbe: { endpoint: client.baseURL },
    stream(request) {
      return createModelStream(request.signal, async (emit, finished) => {
        const { signal, timeout } = callSignal(request.signal, timeoutMs);
        const messages: ChatCompletionMessageParam[] = [];
        const system = withJsonInstruction(request.system, request.json);
        if (system !== '') messages.push({ role: 'system', content: system });
        messages.push({ role: 'user', content: request.prompt });
        const params: ChatCompletionCreateParamsStreaming = {
          model,
          messages,
          stream: true,
          stream_options: { include_usage: true },
        };
        if (schemaParameterSent(request.json)) {
          // strict: false, since strict mode accepts only a subset of JSON Schema (every property required,
          // no additionalProperties); the answer is checked against the schema where it is used.
          params.response_format = {
            type: 'json_schema',
            json_schema: {
              name: 'answer',
              schema: request.json.schema as Record<string, unknown>,
              strict: false,
            },
          };
        }
        try {
          const chunks = await client.chat.completions.create(params, { signal, timeout: timeoutMs });
          let usage: ModelUsage | null = null;
          let answered = false;
          let refusal = '';
          let finish: string | null = null;
          for await (const chunk of chunks) {
            const choice = chunk.choices[0];
            const text = choice?.delta.content ?? '';
            if (text !== '') {
              answered = true;
              emit(text);
            }
            refusal += choice?.delta.refusal ?? '';
            finish = choice?.finish_reason ?? finish;
            // With include_usage the counts come in a last chunk of their own, with no choices.
            usage = usageOf(chunk) ?? usage;
          }
          // The SDK ends the iteration quietly when the request is aborted; that is no answer.
          if (signal.aborted) throw signal.reason;
          if (refusal.trim() !== '') throw refused('OpenAI', refusal.trim());
          if (finish === 'content_filter') throw refused('OpenAI', 'content filter');
          if (!answered) throw emptyAnswer('OpenAI');
          finished(finish);
          return usage;
        } catch (error) {
          throw explainProviderFailure(error, openAIFailure(error), {
            provider: 'OpenAI',
            model,
            baseUrl: client.baseURL,
            timeoutMs,
            stopped: request.signal?.aborted ?? false,
            timedOut: timeout.aborted,
          });
        }
      });
    },
  };
}
