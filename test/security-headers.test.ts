import { existsSync, readdirSync } from 'node:fs';
import { get } from 'node:http';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_DIST_DIR } from '../src/api/app';
import { as, createTestApp, signUp, type TestApp } from './support/test-app';

/** Every answer's security headers, name and value, byte for byte. */
const EXPECTED: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';" +
    "frame-ancestors 'self';img-src 'self' data:;object-src 'none';script-src 'self';script-src-attr 'none';" +
    "style-src 'self' 'unsafe-inline';connect-src 'self' ws: wss:",
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Origin-Agent-Cluster': '?1',
  'Referrer-Policy': 'same-origin',
  'X-Content-Type-Options': 'nosniff',
  'X-DNS-Prefetch-Control': 'off',
  'X-Download-Options': 'noopen',
  'X-Frame-Options': 'SAMEORIGIN',
  'X-Permitted-Cross-Domain-Policies': 'none',
  'X-XSS-Protection': '0',
};
const EXPECTED_LOWER = Object.fromEntries(
  Object.entries(EXPECTED).map(([name, value]) => [name.toLowerCase(), value]),
);
/** Headers no answer carries: HTTPS is the proxy's business, and nothing advertises the server. */
const ABSENT = ['strict-transport-security', 'x-powered-by', 'content-security-policy-report-only'];

function securityHeadersOf(response: LightMyRequestResponse) {
  const names = [...Object.keys(EXPECTED_LOWER), ...ABSENT];
  return Object.fromEntries(
    Object.entries(response.headers).filter(([name]) => names.includes(name.toLowerCase())),
  );
}

describe('security headers', () => {
  let t: TestApp;
  let cookie: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ cookie } = await signUp(t.app));
  });
  afterAll(async () => t?.close());

  it('are the same on every kind of answer: API, pages, static files, errors, 404s and refusals', async () => {
    const signedIn = as(t.app, cookie);
    const answers: [string, LightMyRequestResponse][] = [
      ['API JSON', await signedIn.get('/api/auth/user')],
      ['signed out', await t.app.inject({ method: 'GET', url: '/api/flows' })],
      ['the SPA', await t.app.inject({ method: 'GET', url: '/flows/some-flow' })],
      ['the sign-in page', await t.app.inject({ method: 'GET', url: '/api/login' })],
      ['the API viewer', await signedIn.get('/api/docs/')],
      ['bad input', await signedIn.post('/api/flows', { name: 42 })],
      ['an API 404', await signedIn.get('/api/no-such-call')],
      ['a POST 404', await t.app.inject({ method: 'POST', url: '/no-such-page' })],
      [
        'cross-origin refused',
        await signedIn.post(
          '/api/flows',
          { name: 'x', description: 'y' },
          { origin: 'https://evil.example' },
        ),
      ],
      ['sign-out', await signedIn.get('/api/logout')],
    ];
    const assets = path.join(WEB_DIST_DIR, 'assets');
    // `npm test` builds the SPA first; a test run on its own may come before any build.
    if (existsSync(assets)) {
      const asset = readdirSync(assets).find((name) => name.endsWith('.js'));
      answers.push(['a static file', await t.app.inject({ method: 'GET', url: `/assets/${asset}` })]);
    }
    expect(answers.map(([, response]) => response.statusCode)).toEqual(
      expect.arrayContaining([200, 401, 400, 404, 403, 302]),
    );
    for (const [kind, response] of answers) expect(securityHeadersOf(response), kind).toEqual(EXPECTED_LOWER);
  });

  it('go over the wire once each, with their values, named in lower case as Fastify names its own', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const rawHeaders = await new Promise<string[]>((resolve, reject) => {
      get(`${base}/api/login`, (response) => {
        response.resume();
        resolve(response.rawHeaders);
      }).on('error', reject);
    });
    const sent = new Map<string, string[]>();
    for (let i = 0; i < rawHeaders.length; i += 2) {
      sent.set(rawHeaders[i]!, [...(sent.get(rawHeaders[i]!) ?? []), rawHeaders[i + 1]!]);
    }
    for (const [name, value] of Object.entries(EXPECTED_LOWER)) expect(sent.get(name), name).toEqual([value]);
    // Fastify's own headers are named so too: HTTP header names are case-insensitive.
    expect(sent.has('content-type')).toBe(true);
  });
});
