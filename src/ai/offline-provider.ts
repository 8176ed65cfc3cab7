import type { ModelProvider } from './model-provider';
import { createModelStream } from './model-stream';
import { offlineTextAnswer } from './offline-answer';
import { offlineJsonAnswer } from './offline-json-answer';

export interface OfflineProviderOptions {
  /** A pause before each chunk after the first, so demos and tests can watch the answer arrive. */
  chunkDelayMs?: number;
}

const WORDS_PER_CHUNK = 4;

/** Groups of a few words; joined back they are the text exactly, whitespace included. */
export function chunksOf(text: string): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [];
  const chunks: string[] = [];
  for (let i = 0; i < words.length; i += WORDS_PER_CHUNK) {
    chunks.push(words.slice(i, i + WORDS_PER_CHUNK).join(''));
  }
  return chunks;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The model used when no Gemini key is available: deterministic, no network, labelled as offline. */
export function createOfflineProvider({ chunkDelayMs = 0 }: OfflineProviderOptions = {}): ModelProvider {
  return {
    kind: 'offline',
    model: 'offline',
    stream(request) {
      return createModelStream(request.signal, async (emit, finished) => {
        const text = request.json
          ? offlineJsonAnswer(request.json.schema, request.prompt)
          : offlineTextAnswer(request.system, request.prompt);
        const chunks = chunksOf(text);
        for (const [index, chunk] of chunks.entries()) {
          if (chunkDelayMs > 0 && index > 0) await pause(chunkDelayMs);
          // A stop has already settled the stream; producing more would only be thrown away.
          if (request.signal?.aborted) return null;
          emit(chunk);
        }
        finished('stop');
        return null;
      });
    },
  };
}
