import { GoogleGenAI } from '@google/genai';
import { explainGeminiFailure, googleMessage, rejectsKey } from './gemini-failure';

/**
 * What the provider said of a key: it took it; it refused it (the provider's reason); or it could not be
 * asked (unreachable, down, too slow), so the key is not known to be good or bad.
 */
export type KeyCheck = { outcome: 'accepted' } | { outcome: 'rejected' | 'unchecked'; reason: string };

export interface GeminiKeyCheckOptions {
  apiKey: string;
  /** Where the Gemini REST API lives (GOOGLE_GEMINI_BASE_URL); Google's endpoint when unset. */
  baseUrl?: string | undefined;
  timeoutMs?: number;
}

/** Asks the Gemini API for one model with the key: the cheapest call that needs a valid key and costs nothing. */
export async function checkGeminiKey({
  apiKey,
  baseUrl,
  timeoutMs = 10_000,
}: GeminiKeyCheckOptions): Promise<KeyCheck> {
  // vertexai is pinned, as for the calls: GOOGLE_GENAI_USE_VERTEXAI must not send the key elsewhere.
  const client = new GoogleGenAI({
    apiKey,
    vertexai: false,
    ...(baseUrl ? { httpOptions: { baseUrl } } : {}),
  });
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    await client.models.list({ config: { pageSize: 1, abortSignal: timeout } });
    return { outcome: 'accepted' };
  } catch (error) {
    if (rejectsKey(error)) return { outcome: 'rejected', reason: googleMessage(error) };
    const failure = explainGeminiFailure(error, {
      model: 'models',
      timeoutMs,
      stopped: false,
      timedOut: timeout.aborted,
    });
    // Over its quota, the key was still recognised.
    if (failure.status === 429) return { outcome: 'accepted' };
    return { outcome: 'unchecked', reason: failure.message };
  }
}
