import { MutationCache, type MutationMeta, QueryClient } from '@tanstack/react-query';
import createClient from 'openapi-fetch';
import type { paths } from './api-schema';
import { serverRefusals } from './strings';

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
      const { message, retryable, code } = body as { message?: unknown; retryable?: unknown; code?: unknown };
      // A refusal the app words itself: the server's text is bilingual, the app's screens are Vietnamese.
      const own = typeof code === 'string' ? ownWordsFor(code) : undefined;
      const text = own ?? (typeof message === 'string' ? message : statusText);
      return new ApiError(status, `${status}: ${text}`, retryable === true);
    }
  } catch {
    // Not JSON: the raw text is the best message there is.
  }
  return new ApiError(status, `${status}: ${bodyText || statusText}`);
}

/** The app's own text for a refusal code the screens word themselves, if it is one. */
function ownWordsFor(code: string): string | undefined {
  return Object.hasOwn(serverRefusals, code)
    ? serverRefusals[code as keyof typeof serverRefusals]
    : undefined;
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

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A write whose connection failed got no answer, yet may have been done: it is sent again, with the same
 * Idempotency-Key, after each of these waits (ms), so the server does it once and answers its outcome.
 */
export const RESEND_AFTER_MS = [500, 2_000];

/**
 * The one request layer under every call of the app: cookies always, and every write (POST, PUT, PATCH,
 * DELETE) carries an Idempotency-Key: a new one for each call, that is, each user action, unless the call
 * already names one (the same action sent again). What the server sees twice for one action (this client
 * sending it again, a proxy retrying it on another instance) it does once, and answers with the first
 * outcome. A non-OK answer is thrown as an ApiError, so a call either answers or fails.
 *
 * openapi-fetch hands it the Request it built from the documented path; the app only ever calls its own
 * origin, so what goes to `fetch` is that request's path and query, its method, headers and body.
 */
async function sendRequest(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const headers = new Headers(request.headers);
  const write = WRITES.has(request.method.toUpperCase());
  if (write && !headers.has('Idempotency-Key')) headers.set('Idempotency-Key', newRequestKey());
  const body = request.body === null ? undefined : await request.text();
  const init: RequestInit = {
    method: request.method,
    credentials: 'include',
    headers,
    body: body || undefined,
    signal: request.signal,
  };
  const path = url.pathname + url.search;
  const response = write ? await sendWrite(path, init) : await fetch(path, init);
  await throwIfNotOk(response);
  return response;
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

/**
 * The API as its OpenAPI document describes it (api-schema.ts, `npm run api:types`): each call names a
 * documented path and is checked, path params, query and body, against it, and so is what it answers.
 * openapi-fetch needs an absolute URL to build its Request; outside a page (unit tests) any origin does,
 * since only the path is sent.
 */
export const client = createClient<paths>({
  baseUrl: globalThis.location?.origin ?? 'http://localhost',
  fetch: sendRequest,
});

/** What a call of `client` resolves to: the answer's body (`data`) and the answer itself (its headers). */
export interface Answered<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * What a call answered. Failures never get here (sendRequest throws them); an answer without a body
 * (204) is null.
 */
export function answerOf<T>(result: Answered<T>): T {
  return (result.data ?? null) as T;
}

/**
 * A list asked for without `limit` or `cursor`: the bare array its operation answers then, beside the page
 * (`{items, nextCursor}`) it answers when a page is asked for.
 */
export type Unpaged<Answer> = Extract<Answer, readonly unknown[]>;

/** The bare array of a list asked for without a page; anything else is the server breaking its contract. */
export function unpaged<Answer>(answer: Answer): Unpaged<Answer> {
  if (!Array.isArray(answer)) throw new ApiError(500, '500: expected the whole list, got a page');
  return answer as Unpaged<Answer>;
}

/** A list asked for with `limit` or `cursor`: one page of it, and the cursor of the next (null: the last). */
export type PageOf<Answer> = Extract<Answer, { items: readonly unknown[]; nextCursor: string | null }>;

/** The page of a list asked for one; a bare array is the server breaking its contract. */
export function pageOf<Answer>(answer: Answer): PageOf<Answer> {
  if (Array.isArray(answer) || answer === null || typeof answer !== 'object' || !('items' in answer))
    throw new ApiError(500, '500: expected a page of the list, got the whole list');
  return answer as PageOf<Answer>;
}

type JsonOf<Content> = Content extends { content: { 'application/json': infer Json } } ? Json : null;
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Operation<Path extends keyof paths, M extends Method> =
  paths[Path] extends Record<M, infer Op> ? Op : never;

/** What the API answers when the call succeeds (its 2xx JSON body), as the document says: the web's API types. */
export type AnswerOf<Path extends keyof paths, M extends Method = 'get'> =
  Operation<Path, M> extends {
    responses: infer Responses;
  }
    ? {
        [Status in keyof Responses]: Status extends 200 | 201 | 202 | 204 ? JsonOf<Responses[Status]> : never;
      }[keyof Responses]
    : never;

/** The JSON body a call sends, as the document says. */
export type BodyOf<Path extends keyof paths, M extends Method> =
  Operation<Path, M> extends {
    requestBody?: infer Body;
  }
    ? JsonOf<NonNullable<Body>>
    : never;

/**
 * Fresh for 5 minutes, kept 10, never retried, no refetch on focus or interval by default. There is no
 * default read: each query names its own typed call of `client`, so its data is typed by the document.
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
