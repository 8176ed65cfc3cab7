import Anthropic, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from '@anthropic-ai/sdk';
import type { MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/messages';
import { withJsonInstruction } from './json-instruction';
import type { ModelProvider, ModelUsage } from './model-provider';
import { callSignal, createModelStream } from './model-stream';
import {
  connectionReason,
  emptyAnswer,
  explainProviderFailure,
  refused,
  type SdkFailure,
} from './provider-failure';

export interface AnthropicProviderOptions {
  apiKey: string;
  model: string;
  /**
   * Where the API lives, without the version path (`https://api.anthropic.com`). Without it the SDK itself
   * reads ANTHROPIC_BASE_URL, then falls back to Anthropic's.
   */
  baseUrl?: string;
  /** Bounds the whole call, first byte to last chunk. */
  timeoutMs?: number;
  /** The most the answer may take; the Messages API requires a limit. */
  maxTokens?: number;
}

/** Anthropic's error types for the errors it reports inside a stream, where there is no status. */
const STREAM_ERROR_STATUS: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

/** The Anthropic SDK's error classes, sorted into what both SDKs share. Subclasses come before APIError. */
export function anthropicFailure(error: unknown): SdkFailure | null {
  if (error instanceof APIUserAbortError) return { kind: 'aborted' };
  if (error instanceof APIConnectionTimeoutError) return { kind: 'timeout' };
  if (error instanceof APIConnectionError)
    return { kind: 'connection', reason: connectionReason(error.cause) };
  if (error instanceof APIError) {
    // The body is {type: 'error', error: {type, message}}; `type` is that inner type.
    const detail = error.apiMessage ?? error.message;
    const code = error.errorCode ?? error.type;
    const status = error.status ?? (error.type ? STREAM_ERROR_STATUS[error.type] : undefined);
    if (status === undefined) return { kind: 'stream', detail, code };
    return { kind: 'status', status, detail, code };
  }
  return null;
}

export function createAnthropicProvider({
  apiKey,
  model,
  baseUrl,
  timeoutMs = 120_000,
  maxTokens = 8192,
}: AnthropicProviderOptions): ModelProvider {
  // maxRetries 0: whether and when to try again is our retry policy's call, not the SDK's. A key passed
  // here is the client's only credential: the SDK then reads none from the environment.
  const client = new Anthropic({ apiKey, maxRetries: 0, ...(baseUrl ? { baseURL: baseUrl } : {}) });

  return {
    kind: 'anthropic',
    model,
    stream(request) {
      return createModelStream(request.signal, async (emit, finished) => {
        const { signal, timeout } = callSignal(request.signal, timeoutMs);
        // The Messages API has no response_format: JSON mode is always an instruction.
        const system = withJsonInstruction(
          request.system,
          request.json && { ...request.json, via: 'prompt' },
        );
        const params: MessageCreateParamsStreaming = {
          model,
          max_tokens: maxTokens,
          messages: [{ role: 'user', content: request.prompt }],
          stream: true,
        };
        if (system !== '') params.system = system;
        try {
          const events = await client.messages.create(params, { signal, timeout: timeoutMs });
          let inputTokens: number | null = null;
          let outputTokens: number | null = null;
          let answered = false;
          let stopReason: string | null = null;
          for await (const event of events) {
            if (event.type === 'message_start') {
              inputTokens = event.message.usage.input_tokens;
              outputTokens = event.message.usage.output_tokens;
            } else if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') {
              if (event.delta.text !== '') {
                answered = true;
                emit(event.delta.text);
              }
            } else if (event.type === 'message_delta') {
              // The counts here are cumulative; the last message_delta holds the totals.
              inputTokens = event.usage.input_tokens ?? inputTokens;
              outputTokens = event.usage.output_tokens ?? outputTokens;
              stopReason = event.delta.stop_reason ?? stopReason;
            }
          }
          // The SDK ends the iteration quietly when the request is aborted; that is no answer.
          if (signal.aborted) throw signal.reason;
          if (stopReason === 'refusal') throw refused('Anthropic', 'refusal');
          if (!answered) throw emptyAnswer('Anthropic');
          finished(stopReason);
          const usage: ModelUsage | null =
            inputTokens === null && outputTokens === null
              ? null
              : { inputTokens: inputTokens ?? 0, outputTokens: outputTokens ?? 0 };
          return usage;
        } catch (error) {
          throw explainProviderFailure(error, anthropicFailure(error), {
            provider: 'Anthropic',
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
