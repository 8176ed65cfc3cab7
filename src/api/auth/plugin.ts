import { AsyncResource } from 'node:async_hooks';
import cookie, { type Signer } from '@fastify/cookie';
import session from '@fastify/session';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  API_TOKEN_HEADER_MALFORMED,
  API_TOKEN_NOT_A_TOKEN,
  API_TOKEN_NOT_VALID,
  API_TOKEN_OUTSIDE_WORKSPACE,
  API_TOKENS_NEED_SESSION,
  apiTokenLacksScope,
} from '../../domain/api-token';
import { DomainError } from '../../domain/errors';
import { type Reach, tokenRefusal, withinReach } from '../access';
import { looksLikeToken } from '../api-tokens/api-token-secret';
import { ApiTokensRepository, type HeldToken } from '../api-tokens/api-tokens-repository';
import { sendProblem } from '../http/errors';
import { loginPageUrl, pageToGoBackTo } from './login-page';
import { RememberingSigner } from './session-signer';
import { PostgresSessionStore, SESSIONS_ENDED_CHANNEL } from './session-store';

declare module 'fastify' {
  interface FastifyInstance {
    /** The sign-in sessions: the websocket hub hears from it which sessions end. */
    sessionStore: PostgresSessionStore;
    /** Signs and checks the session cookie. */
    sessionSigner: RememberingSigner;
    /** The users' API tokens (`Authorization: Bearer wb_pat_…`), stored as their hashes. */
    apiTokens: ApiTokensRepository;
  }

  interface FastifyContextConfig {
    /** Set on the routes that have `request.session` (`sessionChanges`). */
    startsOrEndsSession?: boolean;
  }

  interface FastifyRequest {
    /** The signed-in user's id, or null when signed out. Route handlers read it through `userIdOf`. */
    userId: string | null;
    /** The id of the session the request was signed in with, or null. */
    sessionId: string | null;
    /** The API token the request was made with (`Authorization: Bearer`), or null. */
    apiToken: HeldToken | null;
  }

  // The fields this app keeps in a session (@fastify/session declares `Session` on fastify's module). Only
  // the routes that start or end a session have `request.session` (`sessionChanges`).
  interface Session {
    userId?: string;
    /** When the session's expiry was last pushed forward (ms since epoch). */
    renewedAt?: number;
  }
}

export const SESSION_COOKIE = 'workbench.sid';
const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
const SESSION_COOKIE_OPTIONS = {
  httpOnly: true,
  sameSite: 'lax',
  secure: 'auto',
  path: '/',
  maxAge: SESSION_LIFETIME_MS,
} as const;
// Sessions slide forward at most once a day: a store write on every request would cost more than
// a day of precision on a 30-day lifetime is worth.
const RENEW_AFTER_MS = 24 * 60 * 60 * 1000;

/** /api paths a signed-out browser may reach: the sign-in page and the calls it makes. */
// The API document too, so tools (client generators, linters) can read it without an account.
export const PUBLIC_API_PATHS = new Set([
  '/api/login',
  '/api/logout',
  '/api/auth/login',
  '/api/auth/register',
  '/api/openapi.json',
]);
const MUTATING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** What every 401 says of how to authenticate: the bearer scheme (a browser has its cookie). */
export const BEARER_CHALLENGE = 'Bearer realm="workbench"';

/** The signed-in user's id; anything reached while signed out is a 401. */
export function userIdOf(request: FastifyRequest): string {
  if (!request.userId) throw new DomainError('signed_out', 'Unauthorized');
  return request.userId;
}

/** The workspace a request made with a workspace token acts in (null: any the user may act in). */
export function reachOfRequest(request: FastifyRequest): Reach | null {
  const token = request.apiToken;
  return token?.workspaceId ? { userId: token.userId, workspaceId: token.workspaceId } : null;
}

/**
 * Cookie sessions stored in PostgreSQL, API tokens, `request.userId`, and the two gates every request
 * passes: mutations (and websocket handshakes) from another origin with the cookie are refused, and /api is
 * closed to signed-out visitors. A request with `Authorization` is decided by its token alone (the cookie is
 * not read, so the origin check has nothing to protect): see `readToken`.
 */
export interface AuthOptions {
  /** How long a session read is reused without reading the table again (default SESSION_REUSE_MS). */
  sessionReuseMs?: number;
}

async function auth(app: FastifyInstance, options: AuthOptions) {
  const store = new PostgresSessionStore(
    app.sql,
    (error) => app.log.warn({ err: error }, 'session sweep failed'),
    options.sessionReuseMs,
  );
  store.startSweeping();
  // Reused sessions are dropped on every process's sign-outs, heard through PostgreSQL.
  await store.startForgettingEnded();
  app.addHook('onClose', async () => {
    store.stopSweeping();
    // Shutting down, a connection already lost has nothing left to unlisten: that must not stop the close.
    await store.stopForgettingEnded().catch(() => {});
  });
  app.decorate('sessionStore', store);
  // A signed-in browser's cookie is checked once per process, not on every request.
  const signer = new RememberingSigner(app.config.appSecret);
  app.decorate('sessionSigner', signer);

  const tokens = new ApiTokensRepository(app.sql, SESSIONS_ENDED_CHANNEL);
  app.decorate('apiTokens', tokens);

  await app.register(cookie);
  app.decorateRequest('userId', null);
  app.decorateRequest('sessionId', null);
  app.decorateRequest('apiToken', null);

  // Every 401 names the scheme that would pass.
  app.addHook('onSend', async (_request, reply) => {
    if (reply.statusCode === 401 && !reply.hasHeader('www-authenticate'))
      reply.header('www-authenticate', BEARER_CHALLENGE);
  });

  app.addHook('onRequest', async (request, reply) => {
    const path = routePathOf(request);
    if (request.headers.authorization !== undefined && isApiPath(path) && !PUBLIC_API_PATHS.has(path)) {
      return readToken(request, reply, path);
    }
    if ((MUTATING_METHODS.has(request.method) || isWebSocketUpgrade(request)) && isCrossOrigin(request)) {
      return refuse(reply, 403, 'Không nhận thay đổi gửi từ trang của origin khác.');
    }

    const cookie = await readSession(request, reply);
    const refused = !request.userId && isApiPath(path) && !PUBLIC_API_PATHS.has(path);
    // A cookie of no session is cleared. @fastify/session does that itself where it runs (and sign-in's new
    // cookie takes the old one's place), unless this hook answers first.
    if (cookie === 'stale' && (refused || !request.routeOptions.config.startsOrEndsSession)) {
      reply.clearCookie(SESSION_COOKIE, { path: SESSION_COOKIE_OPTIONS.path });
    }
    if (!refused) return;
    // A browser opening an API page signed out (the API docs) goes to sign-in and comes back.
    if (
      request.method === 'GET' &&
      request.headers.accept?.includes('text/html') &&
      !isWebSocketUpgrade(request)
    ) {
      return reply.redirect(loginPageUrl('login', undefined, pageToGoBackTo(request.url)), 303);
    }
    return refuse(reply, 401, 'Unauthorized');
  });

  /**
   * A workspace token's request runs narrowed to its workspace (access.ts, `withinReach`): the rest of its
   * hooks and its handler run inside the narrowing. Reading the body leaves that context (the stream's events
   * come from outside it), so the first preValidation hook goes back into it.
   */
  const narrowed = new WeakMap<FastifyRequest, AsyncResource>();
  app.addHook('onRequest', (request, _reply, done) => {
    const reach = reachOfRequest(request);
    if (reach === null) return done();
    withinReach(reach, () => {
      narrowed.set(request, new AsyncResource('workspace-token'));
      done();
    });
  });
  app.addHook('preValidation', (request, _reply, done) => {
    const resource = narrowed.get(request);
    if (resource === undefined) return done();
    resource.runInAsyncScope(done);
  });

  /**
   * `Authorization: Bearer wb_pat_…`: the token's row, read by its hash on every request (a revoked or
   * expired token fails at once, on every process), then the scope the operation needs (OPERATION_SCOPES), and
   * for a workspace token whether the operation is of the maker's own records (404). Anything else in the
   * header is a 401 that says what was wrong; what the call may then do is decided as for the cookie session,
   * by the maker's role now.
   */
  async function readToken(request: FastifyRequest, reply: FastifyReply, path: string) {
    const [scheme, token, ...rest] = request.headers.authorization!.trim().split(/\s+/);
    if (scheme?.toLowerCase() !== 'bearer' || token === undefined || rest.length > 0) {
      return refuseToken(reply, 'invalid_request', API_TOKEN_HEADER_MALFORMED);
    }
    if (!looksLikeToken(token)) {
      return refuseToken(reply, 'invalid_token', API_TOKEN_NOT_A_TOKEN);
    }
    const held = await tokens.holding(token, request.ip);
    if (!held) {
      return refuseToken(reply, 'invalid_token', API_TOKEN_NOT_VALID);
    }
    request.userId = held.userId;
    request.apiToken = held;
    // No route matched: answered 404 (or 405) as for a session.
    if (request.routeOptions.url === undefined) return;
    const refusal = tokenRefusal(held, request.method, path);
    switch (refusal?.kind) {
      case undefined:
        return;
      case 'session-only':
        return sendProblem(reply, 403, 'forbidden', API_TOKENS_NEED_SESSION);
      case 'insufficient-scope':
        reply.header('www-authenticate', `Bearer error="insufficient_scope", scope="${refusal.needed}"`);
        return sendProblem(reply, 403, 'insufficient_scope', apiTokenLacksScope(refusal.needed, held.scopes));
      case 'outside-workspace':
        return sendProblem(reply, 404, 'not_found', API_TOKEN_OUTSIDE_WORKSPACE);
    }
  }

  /**
   * Who is signed in, read from the stored session without building a @fastify/session object (its
   * construction hashes the whole session twice a request: most of a poll's cost beyond an empty route).
   * A session is pushed forward once a day, as @fastify/session does when it changes. Says whether the
   * request had a session cookie and whether it named a session.
   */
  async function readSession(
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<'none' | 'valid' | 'stale'> {
    const signed = request.cookies[SESSION_COOKIE];
    if (!signed) return 'none';
    const unsigned = signer.unsign(signed);
    const session = unsigned.valid && unsigned.value ? await store.read(unsigned.value) : null;
    if (!session || !unsigned.value) return 'stale';
    request.userId = session.userId ?? null;
    request.sessionId = unsigned.value;
    const now = Date.now();
    if (request.userId && now - (session.renewedAt ?? 0) > RENEW_AFTER_MS) {
      const cookie = {
        ...session.cookie,
        expires: new Date(now + (session.cookie.originalMaxAge ?? SESSION_LIFETIME_MS)),
      };
      if (!(await store.renew(unsigned.value, { ...session, renewedAt: now, cookie }))) {
        // Signed out in the meantime.
        request.userId = null;
        request.sessionId = null;
        return 'stale';
      }
      reply.setCookie(SESSION_COOKIE, signed, {
        path: cookie.path,
        domain: cookie.domain ?? undefined,
        secure: cookie.secure ?? undefined,
        httpOnly: cookie.httpOnly,
        sameSite: cookie.sameSite ?? undefined,
        expires: cookie.expires,
      });
    }
    return 'valid';
  }
}

/**
 * @fastify/session, for the routes that start or end a session (sign-in, sign-up, sign-out, beside them the
 * sign-in page and the current user): registered in their context, so that only they pay for its session
 * object. Every route has `request.userId` and `request.sessionId`.
 */
export const sessionChanges = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRoute', (route) => {
      route.config = { ...route.config, startsOrEndsSession: true };
    });
    await app.register(session, {
      secret: app.sessionSigner as unknown as Signer,
      cookieName: SESSION_COOKIE,
      store: app.sessionStore,
      saveUninitialized: false,
      // Renewal is done by every route's session read, once a day, instead of re-saving on every request.
      rolling: false,
      cookie: SESSION_COOKIE_OPTIONS,
    });
  },
  { name: 'session-changes', fastify: '5.x', dependencies: ['auth'] },
);

/**
 * A websocket handshake is a GET, but it opens a channel that acts with the session, and browsers always
 * send its Origin: checking it stops another page from reading the user's live updates.
 */
function isWebSocketUpgrade(request: FastifyRequest) {
  return request.headers.upgrade?.toLowerCase() === 'websocket';
}

export function isApiPath(path: string) {
  return path === '/api' || path.startsWith('/api/');
}

/**
 * The path a request is decided on, as the router understood it: the matched route's pattern
 * (`/api/flows/:id`), or, for a request no route matched, its path percent-decoded with its dot segments
 * resolved. Never the raw URL: `/%61pi/docs` is routed to `/api/docs`, so it must be gated as that.
 */
export function routePathOf(request: FastifyRequest): string {
  const route = request.routeOptions.url;
  if (route !== undefined) return route;
  const raw = request.url.split('?', 1)[0]!;
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // A malformed escape is left as it came; such a path matches no route.
  }
  return new URL(decoded, 'http://localhost').pathname;
}

/**
 * SameSite=Lax already keeps the cookie off most cross-site requests; this also stops a form or fetch
 * from another site (or a sibling subdomain) acting with the user's session. No Origin (curl, tests,
 * same-origin GET navigations) passes.
 */
function isCrossOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  try {
    const source = new URL(origin);
    // Read Host with the origin's scheme so an explicit default port ("example.com:443") still matches.
    return new URL(`${source.protocol}//${request.host}`).host !== source.host;
  } catch {
    // "null" (sandboxed frames, privacy redirects) and anything unparsable cannot be shown to be us.
    return true;
  }
}

/** A 401 for the Authorization header, with RFC 6750's error in its challenge. */
function refuseToken(reply: FastifyReply, error: 'invalid_request' | 'invalid_token', message: string) {
  reply.header('www-authenticate', `${BEARER_CHALLENGE}, error="${error}"`);
  return sendProblem(reply, 401, 'invalid_token', message);
}

function refuse(reply: FastifyReply, statusCode: 401 | 403, message: string) {
  return sendProblem(reply, statusCode, statusCode === 401 ? 'signed_out' : 'forbidden_origin', message);
}

export default fp(auth, {
  name: 'auth',
  fastify: '5.x',
  decorators: { fastify: ['config', 'sql'] },
});
