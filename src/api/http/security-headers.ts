import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Where a page may load from: this origin, and websockets too for the live updates on /api/ws. */
const CONTENT_SECURITY_POLICY: Record<string, string[]> = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'font-src': ["'self'", 'https:', 'data:'],
  'form-action': ["'self'"],
  'frame-ancestors': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'object-src': ["'none'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'connect-src': ["'self'", 'ws:', 'wss:'],
};

/**
 * The security headers of every answer (API, pages, static files, errors, 404s): the one place the policy is
 * declared. No Strict-Transport-Security: whether the app is reached over HTTPS is the proxy's to say.
 */
export const SECURITY_HEADERS: ReadonlyArray<readonly [name: string, value: string]> = [
  [
    'Content-Security-Policy',
    Object.entries(CONTENT_SECURITY_POLICY)
      .map(([directive, sources]) => `${directive} ${sources.join(' ')}`)
      .join(';'),
  ],
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Origin-Agent-Cluster', '?1'],
  // Not no-referrer: under it browsers send `Origin: null` with form posts, which the Origin check must
  // refuse, and the sign-in page's own forms would fail.
  ['Referrer-Policy', 'same-origin'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-DNS-Prefetch-Control', 'off'],
  ['X-Download-Options', 'noopen'],
  ['X-Frame-Options', 'SAMEORIGIN'],
  ['X-Permitted-Cross-Domain-Policies', 'none'],
  ['X-XSS-Protection', '0'],
];

/** SECURITY_HEADERS as Fastify keeps a reply's headers: by lower-cased name. */
const SECURITY_HEADER_FIELDS: Record<string, string> = Object.fromEntries(
  SECURITY_HEADERS.map(([name, value]) => [name.toLowerCase(), value]),
);

/**
 * Sets SECURITY_HEADERS on every response from its first hook, so answers refused early (401, 403, 503) carry
 * them too. The values are fixed at start-up: a request costs only the header writes. They go with the reply's
 * own headers, which Node checks once as it writes them (set on the raw response, each was checked twice: a
 * sixth of an empty route's CPU), and a header a route sets itself takes precedence.
 */
export default fp(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(SECURITY_HEADER_FIELDS);
      done();
    });
  },
  { name: 'security-headers', fastify: '5.x' },
);
