import cookie, { type Signer } from '@fastify/cookie';
import session from '@fastify/session';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { DomainError } from '../../domain/errors';
import { RememberingSigner } from '../session-signer';
import { PostgresSessionStore } from '../session-store';

declare module 'fastify' {
  interface FastifyInstance {
    /** The sign-in sessions: the websocket hub hears from it which sessions end. */
    sessionStore: PostgresSessionStore;
  }

  interface FastifyRequest {
    /** The signed-in user's id, or null when signed out. Route handlers read it through `userIdOf`. */
    userId: string | null;
  }

  // The fields this app keeps in a session (@fastify/session declares `Session` on fastify's module).
  interface Session {
    userId?: string;
    /** When the session's expiry was last pushed forward (ms since epoch). */
    renewedAt?: number;
  }
}

export const SESSION_COOKIE = 'workbench.sid';
const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
// Sessions slide forward at most once a day: a store write on every request would cost more than
// a day of precision on a 30-day lifetime is worth.
const RENEW_AFTER_MS = 24 * 60 * 60 * 1000;

/** /api paths a signed-out browser may reach: the sign-in page and the calls it makes. */
const PUBLIC_API_PATHS = new Set(['/api/login', '/api/logout', '/api/auth/login', '/api/auth/register']);
const MUTATING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The signed-in user's id; anything reached while signed out is a 401. */
export function userIdOf(request: FastifyRequest): string {
  if (!request.userId) throw new DomainError('signed_out', 'Unauthorized');
  return request.userId;
}

/**
 * Cookie sessions stored in PostgreSQL, `request.userId`, and the two gates every request passes:
 * mutations (and websocket handshakes) from another origin are refused, and /api is closed to
 * signed-out visitors.
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

  await app.register(cookie);
  await app.register(session, {
    // A signed-in browser's cookie is checked once per process, not on every request.
    secret: new RememberingSigner(app.config.appSecret) as unknown as Signer,
    cookieName: SESSION_COOKIE,
    store,
    saveUninitialized: false,
    // Renewal is done below, once a day, instead of re-saving the session on every request.
    rolling: false,
    cookie: { httpOnly: true, sameSite: 'lax', secure: 'auto', path: '/', maxAge: SESSION_LIFETIME_MS },
  });

  app.decorateRequest('userId', null);

  // Added after the session plugin's own onRequest hook, so the session is loaded by the time this runs.
  app.addHook('onRequest', async (request, reply) => {
    if ((MUTATING_METHODS.has(request.method) || isWebSocketUpgrade(request)) && isCrossOrigin(request)) {
      return refuse(reply, 403, 'Cross-origin request refused');
    }

    const current = request.session;
    request.userId = current?.userId ?? null;
    if (request.userId && Date.now() - (current.renewedAt ?? 0) > RENEW_AFTER_MS) {
      // Loading the session already moved its cookie expiry forward; marking it changed makes
      // @fastify/session store that and send the cookie again.
      current.renewedAt = Date.now();
    }

    const path = request.url.split('?', 1)[0]!;
    if (!request.userId && isApiPath(path) && !PUBLIC_API_PATHS.has(path)) {
      return refuse(reply, 401, 'Unauthorized');
    }
  });
}

/**
 * A websocket handshake is a GET, but it opens a channel that acts with the session, and browsers always
 * send its Origin: checking it stops another page from reading the user's live updates.
 */
function isWebSocketUpgrade(request: FastifyRequest) {
  return request.headers.upgrade?.toLowerCase() === 'websocket';
}

function isApiPath(path: string) {
  return path === '/api' || path.startsWith('/api/');
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

function refuse(reply: FastifyReply, statusCode: number, message: string) {
  return reply.status(statusCode).send({ message });
}

export default fp(auth, {
  name: 'auth',
  fastify: '5.x',
  decorators: { fastify: ['config', 'sql'] },
});
