import { PUBLIC_API_PATHS } from '../auth/plugin';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Whether a route takes an Idempotency-Key: every write of the API but sign-in and sign-up, which have no
 * signed-in user to keep the key for (sign-out is a page, a GET). The one rule the idempotency plugin
 * and the OpenAPI document both follow.
 */
export function takesIdempotencyKey(method: string | readonly string[], url: string | undefined): boolean {
  if (url === undefined || !url.startsWith('/api/') || PUBLIC_API_PATHS.has(url)) return false;
  return (typeof method === 'string' ? [method] : method).some((m) => WRITES.has(m.toUpperCase()));
}

/** The answer to a request sent again while the first with its key is still being answered. */
export const STILL_BEING_ANSWERED = 'Request này vẫn đang được xử lý; vui lòng thử lại sau giây lát.';

/**
 * Whether an answer is the keyed request's outcome for good, to be kept and replayed, or may change when the
 * request is sent again (a 5xx, 408, 429, or a problem marked retryable): then the key is given back.
 */
export function isFinalAnswer(status: number, body: string): boolean {
  if (status >= 500 || status === 408 || status === 429) return false;
  if (status < 400) return true;
  try {
    return (JSON.parse(body) as { retryable?: unknown } | null)?.retryable !== true;
  } catch {
    return true;
  }
}
