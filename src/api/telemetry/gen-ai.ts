import { type ModelAnswer, ModelCallError, type ModelProvider } from '../../ai';
import { DomainError } from '../../domain/errors';
import { parseModelId } from '../../domain/model-choice';

/**
 * The version of OpenTelemetry's GenAI semantic conventions the model call spans follow (their latest
 * experimental form, `OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental`): span `chat <model>`,
 * `gen_ai.provider.name`, the usage and response attributes, and the opt-in
 * `gen_ai.client.inference.operation.details` event for the texts.
 */
export const GEN_AI_SEMCONV_VERSION = '1.41.0';

/** The convention's well-known `gen_ai.provider.name` of each provider word of a model id. */
const WELL_KNOWN_PROVIDERS: Record<string, string> = {
  gemini: 'gcp.gemini',
  openai: 'openai',
  anthropic: 'anthropic',
  deepseek: 'deepseek',
  groq: 'groq',
  mistral: 'mistral_ai',
  xai: 'x_ai',
  perplexity: 'perplexity',
  cohere: 'cohere',
};

/** What the offline model (the deterministic stand-in when no model is configured) is called in traces. */
export const OFFLINE_PROVIDER_NAME = 'workbench.offline';

/**
 * `gen_ai.provider.name` of a call: the convention's well-known name of the model id's provider when it has
 * one (`gemini:` -> `gcp.gemini`), else the provider word itself (`ollama`, `openrouter`: an OpenAI-compatible
 * endpoint is named by what it is, not by the client that speaks to it), and the offline model as such.
 */
export function genAiProviderName(modelId: string, kind: ModelProvider['kind']): string {
  if (kind === 'offline') return OFFLINE_PROVIDER_NAME;
  const { provider } = parseModelId(modelId);
  return WELL_KNOWN_PROVIDERS[provider] ?? (provider || kind);
}

/** The attribute values of a span or event: what OpenTelemetry takes. */
export type SpanAttributes = Record<string, string | number | boolean | string[]>;

/** What a chat span says before the call: the operation, the provider, the model asked for. */
export function chatRequestAttributes(modelId: string, provider: Pick<ModelProvider, 'kind' | 'model'>) {
  return {
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': genAiProviderName(modelId, provider.kind),
    'gen_ai.request.model': provider.model,
  } satisfies SpanAttributes;
}

/**
 * What a chat span says once the answer came whole: the model that answered, and the token counts and why
 * the model stopped (the provider's word, lower-cased: `stop`, `end_turn`, `length`) when it reported them.
 */
export function chatResponseAttributes(provider: Pick<ModelProvider, 'model'>, answer: ModelAnswer) {
  const attributes: SpanAttributes = { 'gen_ai.response.model': provider.model };
  if (answer.finishReason) attributes['gen_ai.response.finish_reasons'] = [answer.finishReason];
  if (answer.usage) {
    attributes['gen_ai.usage.input_tokens'] = answer.usage.inputTokens;
    attributes['gen_ai.usage.output_tokens'] = answer.usage.outputTokens;
  }
  return attributes;
}

/**
 * `error.type` of a call that failed: `stopped` or `interrupted` (the user's Stop, this process stopping),
 * the provider's HTTP status, the limit or key problem's code, else the error's kind or class: always a word
 * of a small set, never a message.
 */
export function errorTypeOf(error: unknown, aborted: 'stopped' | 'interrupted' | null): string {
  if (aborted) return aborted;
  if (error instanceof ModelCallError && error.status !== undefined) return String(error.status);
  if (error instanceof DomainError) return error.code ?? error.kind;
  if (error instanceof Error && error.name !== 'Error') return error.name;
  return '_OTHER';
}

/**
 * The attributes of the `gen_ai.client.inference.operation.details` event: the system instruction, the
 * prompt and the answer in the convention's message shape (JSON text). Only made when the operator turned
 * content capture on.
 */
export function inferenceDetails(
  request: { system: string; prompt: string },
  answer: ModelAnswer,
  chat: ReturnType<typeof chatRequestAttributes>,
): SpanAttributes {
  const text = (content: string) => [{ type: 'text', content }];
  return {
    ...chat,
    ...(request.system === '' ? {} : { 'gen_ai.system_instructions': JSON.stringify(text(request.system)) }),
    'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: text(request.prompt) }]),
    'gen_ai.output.messages': JSON.stringify([
      { role: 'assistant', parts: text(answer.text), finish_reason: answer.finishReason ?? 'stop' },
    ]),
  };
}
