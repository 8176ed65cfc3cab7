import { createHash } from 'node:crypto';

/**
 * What makes two requests the same request: method, path (with its query) and body, the body as canonical
 * JSON (object members sorted by name), so the same fields sent in another order are the same request.
 * Stored as a sha256 with the Idempotency-Key; the request itself is never kept.
 */
export function requestFingerprint(method: string, url: string, body: unknown): string {
  const canonical = JSON.stringify([method.toUpperCase(), url, canonicalJson(body)]);
  return createHash('sha256').update(canonical).digest('hex');
}

/** The value with every object's members sorted by name; no body (undefined) is null. */
function canonicalJson(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return value.map(canonicalJson);
  if (typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((name) => [name, canonicalJson((value as Record<string, unknown>)[name])]),
    );
  }
  return value;
}
