import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnvironment } from '../src/api/runtime/config';
import {
  type AnotherInstance,
  anotherAddress,
  anotherInstance,
  as,
  createTestApp,
  signUp,
  type TestApp,
} from './support/test-app';

const PASSWORD = 'correct horse battery';
/** The reverse proxy: the peer every request behind it comes from. */
const PROXY = '127.0.0.1';

describe('TRUST_PROXY', () => {
  /** The default: TRUST_PROXY unset. */
  let off: TestApp;
  /** The same database behind a proxy on PROXY. */
  let proxied: AnotherInstance;
  let behindProxy: FastifyInstance;
  let email: string;

  beforeAll(async () => {
    off = await createTestApp({ trustProxy: parseEnvironment({}).trustProxy });
    proxied = await anotherInstance(off.db.url, {
      trustProxy: parseEnvironment({ TRUST_PROXY: PROXY }).trustProxy,
    });
    behindProxy = proxied.app;
    email = (await signUp(off.app)).email;
  });
  afterAll(async () => {
    await proxied?.close();
    await off?.close();
  });

  const signIn = (app: FastifyInstance, from: string, headers: Record<string, string>, password = PASSWORD) =>
    app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password },
      headers,
      remoteAddress: from,
    });

  const sessionCookie = (response: Awaited<ReturnType<typeof signIn>>) => {
    const header = response.headers['set-cookie'];
    return (Array.isArray(header) ? header : [header ?? '']).find((c) => c.startsWith('workbench.sid='));
  };

  it('makes the session cookie Secure for a sign-in that reached the proxy over https', async () => {
    const viaHttps = await signIn(behindProxy, PROXY, {
      'x-forwarded-proto': 'https',
      'x-forwarded-for': '203.0.113.50',
    });
    expect(viaHttps.statusCode).toBe(200);
    expect(sessionCookie(viaHttps)).toMatch(/; Secure/i);

    const viaHttp = await signIn(behindProxy, PROXY, {
      'x-forwarded-proto': 'http',
      'x-forwarded-for': '203.0.113.50',
    });
    expect(sessionCookie(viaHttp)).toBeDefined();
    expect(sessionCookie(viaHttp)).not.toMatch(/; Secure/i);
  });

  it('believes X-Forwarded-Proto only from the proxy, and not at all when off', async () => {
    const direct = await signIn(behindProxy, '198.51.100.7', { 'x-forwarded-proto': 'https' });
    expect(direct.statusCode).toBe(200);
    expect(sessionCookie(direct)).not.toMatch(/; Secure/i);

    const unset = await signIn(off.app, '198.51.100.8', { 'x-forwarded-proto': 'https' });
    expect(unset.statusCode).toBe(200);
    expect(sessionCookie(unset)).toBeDefined();
    expect(sessionCookie(unset)).not.toMatch(/; Secure/i);
  });

  it('limits sign-in per client address behind the proxy, from X-Forwarded-For', async () => {
    const attempt = (client: string) =>
      signIn(behindProxy, PROXY, { 'x-forwarded-for': client }, 'wrong password!').then((r) => r.statusCode);
    for (let i = 0; i < 10; i++) expect(await attempt('203.0.113.1')).toBe(401);
    expect(await attempt('203.0.113.1')).toBe(429);
    // Another client behind the same proxy has attempts of its own.
    expect(await attempt('203.0.113.2')).toBe(401);
    // A client claiming to be another cannot: the address it names is only the proxy's word.
    expect(await attempt('203.0.113.3, 203.0.113.1')).toBe(429);
  });

  it('keys the limit on the connecting address when off, whatever X-Forwarded-For says', async () => {
    const attempt = (client: string) =>
      signIn(off.app, '192.0.2.10', { 'x-forwarded-for': client }, 'wrong password!').then(
        (r) => r.statusCode,
      );
    for (let i = 0; i < 10; i++) expect(await attempt(`203.0.113.${10 + i}`)).toBe(401);
    expect(await attempt('203.0.113.99')).toBe(429);
  });
});

describe("an invitation's link behind a proxy", () => {
  let t: TestApp;
  /** Behind the proxy on PROXY, with PUBLIC_URL set. */
  let published: AnotherInstance;

  beforeAll(async () => {
    const trustProxy = parseEnvironment({ TRUST_PROXY: PROXY }).trustProxy;
    t = await createTestApp({ trustProxy });
    const { publicUrl, publicUrlSet } = parseEnvironment({ PUBLIC_URL: 'https://flows.example.com/' });
    published = await anotherInstance(t.db.url, { trustProxy, publicUrl, publicUrlSet });
  });
  afterAll(async () => {
    await published?.close();
    await t?.close();
  });

  /** An invitation made through the proxy (the requests come from PROXY) with these headers. */
  async function inviteOn(app: FastifyInstance, headers: Record<string, string>) {
    const { cookie } = await signUp(app, 'Ann', { remoteAddress: anotherAddress() });
    const owner = as(app, cookie);
    const workspace = (await owner.post('/api/workspaces', { name: 'Team' })).json();
    const response = await owner.post(
      `/api/workspaces/${workspace.id}/invitations`,
      { email: 'guest@example.com', role: 'editor' },
      headers,
    );
    expect(response.statusCode, response.body).toBe(201);
    return response.json().acceptUrl as string;
  }

  it('leads to PUBLIC_URL when it is set, whatever X-Forwarded-Host a request names', async () => {
    const acceptUrl = await inviteOn(published.app, {
      host: 'flows.example.com',
      'x-forwarded-host': 'attacker.example',
      'x-forwarded-proto': 'http',
    });
    expect(acceptUrl).toMatch(/^https:\/\/flows\.example\.com\/invitations\/[A-Za-z0-9_-]{43}$/);
  });

  it("leads, without PUBLIC_URL, to the address the proxy forwards: so the proxy must not pass on a client's own", async () => {
    const acceptUrl = await inviteOn(t.app, {
      host: 'flows.example.com',
      'x-forwarded-host': 'other.example',
    });
    expect(new URL(acceptUrl).host).toBe('other.example');
    expect(new URL(await inviteOn(t.app, { host: 'flows.example.com' })).host).toBe('flows.example.com');
  });
});
