import { createHash, timingSafeEqual } from 'node:crypto';

/** Where a Prometheus server scrapes the metrics, on the app's port or on their own. */
export const METRICS_PATH = '/metrics';

/** The challenge of a refused scrape: the bearer scheme, in the metrics' own realm. */
export const METRICS_CHALLENGE = 'Bearer realm="metrics"';

/** What a scrape without the token, or with another one, is answered (401). */
export const METRICS_TOKEN_NEEDED = 'The metrics need Authorization: Bearer <METRICS_TOKEN>.';

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Whether an Authorization header carries `Bearer <token>`: compared in constant time (over digests of
 * one length), so the answer's timing tells nothing of the token. No token set: every scrape may read.
 */
export function mayScrape(authorization: string | undefined, token: string | undefined): boolean {
  if (token === undefined) return true;
  const [scheme, given, ...rest] = (authorization ?? '').trim().split(/\s+/);
  if (scheme?.toLowerCase() !== 'bearer' || given === undefined || rest.length > 0) return false;
  return timingSafeEqual(digest(given), digest(token));
}
