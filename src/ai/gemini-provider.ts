import { type GenerateContentConfig, type GenerateContentResponse, GoogleGenAI } from '@google/genai';
import { explainGeminiFailure } from './gemini-failure';
import { schemaParameterSent, withJsonInstruction } from './json-instruction';
import { ModelCallError, type ModelProvider, type ModelUsage } from './model-provider';
import { callSignal, createModelStream } from './model-stream';

export interface GeminiProviderOptions {
  apiKey: string;
  model: string;
  /** Bounds the whole call, first byte to last chunk. */
  timeoutMs?: number;
  /**
   * Where the Gemini REST API lives. Without it the SDK itself reads GOOGLE_GEMINI_BASE_URL, then falls
   * back to Google's endpoint.
   */
  baseUrl?: string;
}

/** The answer text of a chunk; thought summaries are not part of the answer. */
function textOf(chunk: GenerateContentResponse): string {
  const parts = chunk.candidates?.[0]?.content?.parts ?? [];
  return parts
    .filter((part) => typeof part.text === 'string' && !part.thought)
    .map((part) => part.text)
    .join('');
}

function usageOf(chunk: GenerateContentResponse): ModelUsage | null {
  const usage = chunk.usageMetadata;
  if (!usage) return null;
  return { inputTokens: usage.promptTokenCount ?? 0, outputTokens: usage.candidatesTokenCount ?? 0 };
}

/** Why Gemini sent no text at all: a block is not worth retrying, a bare empty answer may be. */
function emptyAnswer(last: GenerateContentResponse | null): ModelCallError {
  const blocked = last?.promptFeedback?.blockReason;
  if (blocked)
    return new ModelCallError(`The Gemini API blocked the prompt (${blocked}).`, { retryable: false });
  const finish = last?.candidates?.[0]?.finishReason;
  if (finish && finish !== 'STOP') {
    return new ModelCallError(`The Gemini API returned no text (finish reason ${finish}).`, {
      retryable: false,
    });
  }
  return new ModelCallError('The Gemini API returned an empty answer. Try again.', { retryable: true });
}

export function createGeminiProvider({
  apiKey,
  model,
  timeoutMs = 120_000,
  baseUrl,
}: GeminiProviderOptions): ModelProvider {
  // vertexai is pinned: GOOGLE_GENAI_USE_VERTEXAI in the environment must not send our key elsewhere.
  const client = new GoogleGenAI({
    apiKey,
    vertexai: false,
    ...(baseUrl ? { httpOptions: { baseUrl } } : {}),
  });

  return {
    kind: 'gemini',
    model,
    stream(request) {
      return createModelStream(request.signal, async (emit, finished) => {
        const { signal: abortSignal, timeout } = callSignal(request.signal, timeoutMs);
        const config: GenerateContentConfig = { abortSignal };
        const system = withJsonInstruction(request.system, request.json);
        if (system !== '') config.systemInstruction = system;
        if (schemaParameterSent(request.json)) {
          // Our schemas are plain JSON Schema, which responseJsonSchema takes as is (responseSchema wants
          // Google's OpenAPI subset).
          config.responseMimeType = 'application/json';
          config.responseJsonSchema = request.json.schema;
        }
        try {
          const chunks = await client.models.generateContentStream({
            model,
            contents: request.prompt,
            config,
          });
          let usage: ModelUsage | null = null;
          let last: GenerateContentResponse | null = null;
          let answered = false;
          for await (const chunk of chunks) {
            last = chunk;
            const text = textOf(chunk);
            if (text !== '') {
              answered = true;
              emit(text);
            }
            // Each chunk reports the counts so far; the last one holds the totals.
            usage = usageOf(chunk) ?? usage;
          }
          if (!answered) throw emptyAnswer(last);
          finished(last?.candidates?.[0]?.finishReason);
          return usage;
        } catch (error) {
          throw explainGeminiFailure(error, {
            model,
            timeoutMs,
            stopped: request.signal?.aborted ?? false,
            timedOut: timeout.aborted,
          });
        }
      });
    },
  };
}
