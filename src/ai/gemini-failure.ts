import type { ApiError } from '@google/genai';
import { ModelCallError } from './model-provider';

export interface GeminiCallContext {
  model: string;
  timeoutMs: number;
  /** The caller's signal fired: the user stopped the run. */
  stopped: boolean;
  /** Our own time limit fired. */
  timedOut: boolean;
}

/** Google's error body is `{error: {code, message, status}}`; the SDK puts it, as JSON, in its message. */
export function googleMessage(error: ApiError): string {
  const json = error.message.slice(Math.max(0, error.message.indexOf('{')));
  try {
    const body = JSON.parse(json) as { error?: { message?: unknown } };
    if (typeof body.error?.message === 'string' && body.error.message.trim() !== '')
      return body.error.message;
  } catch {
    // Not JSON: the raw message is the best there is.
  }
  return error.message;
}

const keyRejected = (status: number, cause: unknown) =>
  new ModelCallError(
    `The Gemini API rejected the key (401/403). Check that the API key is correct and enabled for the Gemini API.`,
    { retryable: false, status, cause },
  );

// By name rather than instanceof: a second copy of the SDK (ESM beside CJS) would fail instanceof.
export const isApiError = (error: unknown): error is ApiError =>
  error instanceof Error && error.name === 'ApiError' && typeof (error as ApiError).status === 'number';

/**
 * Whether the Gemini API refused the key itself: 401/403, or the 400 API_KEY_INVALID it answers an unknown
 * key with.
 */
export const rejectsKey = (error: unknown): error is ApiError =>
  isApiError(error) &&
  (error.status === 401 ||
    error.status === 403 ||
    (error.status === 400 && /API[_ ]KEY[_ ]INVALID|API key not valid/i.test(error.message)));

const limit = (ms: number) => (ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`);

/** What a failed Gemini call means for the user, and whether trying again may help. */
export function explainGeminiFailure(error: unknown, context: GeminiCallContext): ModelCallError {
  if (error instanceof ModelCallError) return error;
  if (context.stopped) return ModelCallError.stopped();
  if (context.timedOut) {
    return new ModelCallError(
      `The Gemini API did not finish answering within ${limit(context.timeoutMs)}. Try again.`,
      { retryable: true, cause: error },
    );
  }
  if (isApiError(error)) {
    const status = error.status;
    const detail = googleMessage(error);
    if (rejectsKey(error)) return keyRejected(status, error);
    if (status === 429) {
      return new ModelCallError(
        `The Gemini API quota or rate limit was reached (429). Wait a moment and try again. ${detail}`,
        { retryable: true, status, cause: error },
      );
    }
    if (status === 404) {
      return new ModelCallError(`The Gemini model "${context.model}" was not found (404). ${detail}`, {
        retryable: false,
        status,
        cause: error,
      });
    }
    if (status >= 500) {
      return new ModelCallError(`The Gemini API is unavailable right now (${status}). Try again. ${detail}`, {
        retryable: true,
        status,
        cause: error,
      });
    }
    return new ModelCallError(`The Gemini API refused the request (${status}): ${detail}`, {
      retryable: false,
      status,
      cause: error,
    });
  }
  if (error instanceof TypeError && /fetch failed/i.test(error.message)) {
    const reason = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return new ModelCallError(`Could not reach the Gemini API${reason}. Try again.`, {
      retryable: true,
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ModelCallError(`The Gemini call failed: ${message}`, { retryable: false, cause: error });
}
