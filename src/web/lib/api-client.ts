import { MutationCache, type MutationMeta, QueryClient, type QueryFunction } from '@tanstack/react-query';

/** An API failure as the app words it: `status: message`, with the server's retryable hint. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Builds the error of a non-OK answer from its status and raw body text. */
export function apiErrorOf(status: number, statusText: string, bodyText: string): ApiError {
  try {
    const body = JSON.parse(bodyText) as unknown;
    if (body !== null && typeof body === 'object') {
      const { message, retryable } = body as { message?: unknown; retryable?: unknown };
      const text = typeof message === 'string' ? message : statusText;
      return new ApiError(status, `${status}: ${text}`, retryable === true);
    }
  } catch {
    // Not JSON: the raw text is the best message there is.
  }
  return new ApiError(status, `${status}: ${bodyText || statusText}`);
}

async function throwIfNotOk(response: Response) {
  if (response.ok) return;
  const text = await response.text().catch(() => '');
  throw apiErrorOf(response.status, response.statusText, text);
}

/**
 * A new random key (RFC 4122 version 4). `crypto.randomUUID` exists only on secure pages (https or
 * localhost), not on a server reached over plain http by its LAN address.
 */
export function newRequestKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * What a call may add: request headers of its own (a condition: If-Match), a look at the answer's (its
 * ETag), and, for a write sent again by its caller, the Idempotency-Key it was first sent with.
 */
export interface RequestOptions {
  headers?: Record<string, string>;
  /** Told the headers of a successful answer. */
  onHeaders?: (headers: Headers) => void;
  requestKey?: string;
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A write whose connection failed got no answer, yet may have been done: it is sent again, with the same
 * Idempotency-Key, after each of these waits (ms), so the server does it once and answers its outcome.
 */
export const RESEND_AFTER_MS = [500, 2_000];

/**
 * One call to the API: cookies always, a JSON body only when there is one; 204 yields null. Every write (POST,
 * PUT, PATCH, DELETE) carries an Idempotency-Key: a new one for each call, that is, each user action, unless
 * the caller sends the same call again with `requestKey`. What the server sees twice for one action (this
 * client sending it again, a proxy retrying it on another instance) it does once, and answers with the first
 * outcome.
 */
export async function apiRequest<T>(
  method: string,
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = { ...options.headers };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const write = WRITES.has(method.toUpperCase());
  if (write) headers['Idempotency-Key'] = options.requestKey ?? newRequestKey();
  const init: RequestInit = {
    method,
    credentials: 'include',
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  };
  const response = write ? await sendWrite(path, init) : await fetch(path, init);
  await throwIfNotOk(response);
  options.onHeaders?.(response.headers);
  if (response.status === 204) return null as T;
  return (await response.json()) as T;
}

/** Sends a write, again (the same request, the same key) while its connection fails, RESEND_AFTER_MS. */
async function sendWrite(path: string, init: RequestInit): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fetch(path, init);
    } catch (error) {
      const wait = RESEND_AFTER_MS[attempt];
      if (wait === undefined || (error instanceof Error && error.name === 'AbortError')) throw error;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => apiRequest<T>('GET', path, undefined, options),
  post: <T>(path: string, body?: unknown) => apiRequest<T>('POST', path, body),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    apiRequest<T>('PUT', path, body, options),
  patch: <T>(path: string, body?: unknown) => apiRequest<T>('PATCH', path, body),
  delete: <T = null>(path: string, options?: RequestOptions) =>
    apiRequest<T>('DELETE', path, undefined, options),
};

/** A query key's segments joined with '/' form the GET path, so keys read like the URLs they cache. */
export const pathOfQueryKey = (queryKey: readonly unknown[]) => queryKey.map(String).join('/');

type UnauthorizedBehavior = 'returnNull' | 'throw';

/** The default read: GET the key's path; optionally a 401 means "nobody" instead of an error. */
export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey, signal }) => {
    const response = await fetch(pathOfQueryKey(queryKey), { credentials: 'include', signal });
    if (on401 === 'returnNull' && response.status === 401) return null;
    await throwIfNotOk(response);
    if (response.status === 204) return null;
    return (await response.json()) as T;
  };
}

/**
 * Fresh for 5 minutes, kept 10, never retried, no refetch on focus or interval by default.
 * Every failed mutation is told to `onMutationFailure` with its meta, so failures take one path to the user.
 */
export function createQueryClient({
  onMutationFailure,
}: {
  onMutationFailure?: (error: Error, meta: MutationMeta | undefined) => void;
} = {}) {
  return new QueryClient({
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => onMutationFailure?.(error, mutation.meta),
    }),
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        staleTime: 5 * 60 * 1000,
        gcTime: 10 * 60 * 1000,
        retry: false,
        refetchOnWindowFocus: false,
        refetchInterval: false,
      },
      mutations: { retry: false },
    },
  });
}

/** The message to show for a failed call, or the screen's fallback when there is none. */
export const messageOf = (error: unknown, fallback: string) =>
  error instanceof Error && error.message ? error.message : fallback;
