import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SIGN_IN_BODY_LIMIT, signInMessages } from '../src/api/auth/login-page';
import { verifyPassword } from '../src/api/auth/passwords';
import authPlugin, { userIdOf } from '../src/api/auth/plugin';
import { authRoutes } from '../src/api/auth/routes';
import { PostgresSessionStore } from '../src/api/auth/session-store';
import { handleError } from '../src/api/http/errors';
import routeSchemas from '../src/api/http/route-schemas';
import { UsersRepository } from '../src/api/users/users-repository';
import { createTestDatabase, type TestDatabase } from './support/database';
import { testConfig } from './support/test-app';

const config = testConfig({
  dataDir: '/tmp/workbench-auth-test',
  appSecret: 'auth-test-secret-auth-test-secret-0123456789',
});

/** Only what sign-in needs, plus one protected route standing in for the rest of the API. */
async function buildAuthApp(sql: Sql): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  app.setErrorHandler(handleError);
  app.decorate('config', config);
  app.decorate('sql', sql);
  app.decorate('users', new UsersRepository(sql));
  await app.register(rateLimit, { global: false });
  // Tests below change session rows behind the server's back: read them every time.
  await app.register(authPlugin, { sessionReuseMs: 0 });
  // Routes declare zod schemas: the plugin that compiles them comes first, as in the app.
  await app.register(routeSchemas);
  await app.register(authRoutes);
  app.get('/api/ping', async (request) => ({ userId: userIdOf(request) }));
  app.post('/api/ping', async (request) => ({ userId: userIdOf(request) }));
  await app.ready();
  return app;
}

const PASSWORD = 'correct horse battery';
const WRONG_CREDENTIALS = 'Email hoặc mật khẩu không đúng';

let db: TestDatabase;
let app: FastifyInstance;
let accounts = 0;
// Sign-in is rate-limited per IP; each test calls from its own address so the limit only shows where tested.
let ip = '';
let ips = 0;

beforeAll(async () => {
  db = await createTestDatabase();
  app = await buildAuthApp(db.sql);
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});
beforeEach(() => {
  ips++;
  ip = `10.0.${ips}.1`;
});

function post(url: string, payload: object, headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url, payload, headers, remoteAddress: ip });
}

function postForm(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'POST',
    url,
    payload: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    remoteAddress: ip,
  });
}

function get(url: string, cookie?: string) {
  return app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {}, remoteAddress: ip });
}

function setCookieOf(response: LightMyRequestResponse): string | undefined {
  const header = response.headers['set-cookie'];
  return (Array.isArray(header) ? header : header ? [header] : []).find((c) =>
    c.startsWith('workbench.sid='),
  );
}

function typedCookieOf(response: LightMyRequestResponse): string | undefined {
  const header = response.headers['set-cookie'];
  return (Array.isArray(header) ? header : header ? [header] : []).find((c) =>
    c.startsWith('workbench.typed='),
  );
}

/** The `name=value` pair a browser would send back. */
function sessionCookieOf(response: LightMyRequestResponse): string {
  const header = setCookieOf(response);
  if (!header) throw new Error(`no session cookie in ${JSON.stringify(response.headers)}`);
  return header.split(';')[0]!;
}

function sidOf(cookie: string): string {
  return decodeURIComponent(cookie.slice('workbench.sid='.length)).split('.')[0]!;
}

async function accountsWithEmail(email: string) {
  const [row] = await db.sql<
    { count: number }[]
  >`SELECT count(*)::int AS count FROM users WHERE email = ${email}`;
  return row!.count;
}

async function sessionCount() {
  const [row] = await db.sql<{ count: number }[]>`SELECT count(*)::int AS count FROM sessions`;
  return row!.count;
}

function newEmail() {
  accounts++;
  return `user${accounts}-${Date.now()}@example.com`;
}

async function register(email = newEmail(), password = PASSWORD) {
  const response = await post('/api/auth/register', { email, password, firstName: 'An', lastName: 'Nguyễn' });
  expect(response.statusCode).toBe(201);
  return {
    response,
    user: response.json() as { id: string; email: string },
    cookie: sessionCookieOf(response),
    email,
  };
}

describe('sign-up', () => {
  it('creates the account, sets the session cookie, and /api/auth/user returns the user', async () => {
    const email = newEmail();
    const response = await post('/api/auth/register', {
      email: `  ${email.toUpperCase()} `,
      password: PASSWORD,
      firstName: '  An ',
      lastName: 'Nguyễn',
    });
    expect(response.statusCode).toBe(201);
    const user = response.json();
    expect(user).toEqual({ id: expect.any(String), email, firstName: 'An', lastName: 'Nguyễn' });

    const header = setCookieOf(response)!;
    expect(header).toMatch(/HttpOnly/i);
    expect(header).toMatch(/SameSite=Lax/i);
    expect(header).toMatch(/Path=\//);
    expect(header).not.toMatch(/Secure/i);
    const expires = Date.parse(/Expires=([^;]+)/i.exec(header)![1]!);
    expect(expires - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000);

    const cookie = sessionCookieOf(response);
    const me = await get('/api/auth/user', cookie);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual(user);
    expect((await get('/api/ping', cookie)).json()).toEqual({ userId: user.id });
  });

  it('refuses a second account for the same e-mail with 409, whatever its case', async () => {
    const { email } = await register();
    const again = await post('/api/auth/register', {
      email: email.toUpperCase(),
      password: 'another password',
      firstName: 'B',
      lastName: 'C',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: 'Email này đã được đăng ký' });
    expect(setCookieOf(again)).toBeUndefined();
    expect(await accountsWithEmail(email)).toBe(1);
  });

  it('answers bad input with 400 and a readable message, and stores nothing', async () => {
    const valid = { email: newEmail(), password: PASSWORD, firstName: 'An', lastName: 'Nguyễn' };
    const cases: [object, string][] = [
      [{ ...valid, email: 'not-an-email' }, 'email: Email không hợp lệ'],
      [{ ...valid, password: 'short' }, 'password: Mật khẩu cần từ 8 đến 200 ký tự'],
      [{ ...valid, password: 'x'.repeat(201) }, 'password: Mật khẩu cần từ 8 đến 200 ký tự'],
      [{ ...valid, firstName: '   ' }, 'firstName: Vui lòng nhập tên (tối đa 100 ký tự)'],
      [{ ...valid, lastName: 'x'.repeat(101) }, 'lastName: Vui lòng nhập họ (tối đa 100 ký tự)'],
      [{ email: valid.email, password: PASSWORD }, 'firstName: Vui lòng nhập tên (tối đa 100 ký tự)'],
    ];
    for (const [payload, message] of cases) {
      const response = await post('/api/auth/register', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().message).toBe(message);
    }
    const login = await post('/api/auth/login', { email: 'nobody' });
    expect(login.statusCode).toBe(400);
    expect(login.json().message).toMatch(/^email: /);
    expect(await accountsWithEmail(valid.email)).toBe(0);
  });

  it('never stores the password in plain text', async () => {
    const { user } = await register();
    const [credentials] = await db.sql<{ passwordSalt: string; passwordHash: string }[]>`
      SELECT password_salt, password_hash FROM user_credentials WHERE user_id = ${user.id}`;
    expect(credentials!.passwordHash).not.toContain(PASSWORD);
    expect(Buffer.from(credentials!.passwordHash, 'base64')).toHaveLength(64);
    expect(Buffer.from(credentials!.passwordSalt, 'base64')).toHaveLength(16);
    expect(await verifyPassword(PASSWORD, credentials!.passwordSalt, credentials!.passwordHash)).toBe(true);

    const [other] = await db.sql<{ passwordSalt: string }[]>`
      SELECT password_salt FROM user_credentials WHERE user_id <> ${user.id} LIMIT 1`;
    expect(other?.passwordSalt).not.toBe(credentials!.passwordSalt);

    const stored = await db.sql<{ row: string }[]>`
      SELECT concat_ws(' ', u.*, c.*) AS row FROM users u JOIN user_credentials c ON c.user_id = u.id`;
    const sessions = await db.sql<{ sess: string }[]>`SELECT sess::text AS sess FROM sessions`;
    for (const text of [...stored.map((r) => r.row), ...sessions.map((s) => s.sess)]) {
      expect(text).not.toContain(PASSWORD);
    }
  });
});

describe('sign-in', () => {
  it(`refuses a body past ${SIGN_IN_BODY_LIMIT / 1024} KB naming that limit, as JSON or as a form`, async () => {
    const big = {
      email: newEmail(),
      password: 'x'.repeat(SIGN_IN_BODY_LIMIT),
      firstName: 'An',
      lastName: 'B',
    };
    for (const url of ['/api/auth/login', '/api/auth/register']) {
      const json = await post(url, big);
      expect(json.statusCode, json.body).toBe(413);
      expect(json.json().detail).toBe(`Nội dung request quá lớn: tối đa ${SIGN_IN_BODY_LIMIT / 1024} KB.`);
      const form = await postForm(url, big);
      expect(form.statusCode, form.body).toBe(303);
      expect(form.headers.location).toMatch(/[?&]error=tooLarge$/);
    }
    expect(signInMessages.tooLarge).toContain(`${SIGN_IN_BODY_LIMIT / 1024} KB`);
    expect(await accountsWithEmail(big.email)).toBe(0);
  });

  it('signs in with the right password under a new session id', async () => {
    const { email, user, cookie: signUpCookie } = await register();
    const response = await post('/api/auth/login', { email: ` ${email.toUpperCase()}`, password: PASSWORD });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: user.id, email, firstName: 'An', lastName: 'Nguyễn' });
    const cookie = sessionCookieOf(response);
    expect(sidOf(cookie)).not.toBe(sidOf(signUpCookie));
    expect((await get('/api/auth/user', cookie)).json()).toMatchObject({ id: user.id });

    // Signing in again from an existing session replaces it rather than reusing its id.
    const again = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: PASSWORD },
      headers: { cookie },
      remoteAddress: ip,
    });
    expect(again.statusCode).toBe(200);
    expect(sidOf(sessionCookieOf(again))).not.toBe(sidOf(cookie));
    expect((await get('/api/auth/user', cookie)).statusCode).toBe(401);
  });

  it('refuses a wrong password and an unknown e-mail with the same 401 message', async () => {
    const { email } = await register();
    const wrong = await post('/api/auth/login', { email, password: 'wrong password' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ message: WRONG_CREDENTIALS });
    expect(setCookieOf(wrong)).toBeUndefined();

    const unknown = await post('/api/auth/login', { email: newEmail(), password: PASSWORD });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toMatchObject({ message: WRONG_CREDENTIALS });
  });

  it('rate-limits sign-in to 10 attempts a minute per IP with 429', async () => {
    const { email } = await register();
    for (let attempt = 1; attempt <= 10; attempt++) {
      const response = await post('/api/auth/login', { email, password: 'wrong password' });
      expect(response.statusCode, `attempt ${attempt}`).toBe(401);
    }
    const limited = await post('/api/auth/login', { email, password: PASSWORD });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/quá nhiều lần/);
    expect(limited.headers['retry-after']).toBeDefined();

    const limitedForm = await postForm('/api/auth/login', { email, password: PASSWORD });
    expect(limitedForm.statusCode).toBe(303);
    expect(limitedForm.headers.location).toBe('/api/login?error=tooManyAttempts');

    ip = '10.255.0.1';
    expect((await post('/api/auth/login', { email, password: PASSWORD })).statusCode).toBe(200);
  });

  it('rate-limits sign-up as well', async () => {
    for (let attempt = 1; attempt <= 10; attempt++) {
      const response = await post('/api/auth/register', { email: 'bad' });
      expect(response.statusCode, `attempt ${attempt}`).toBe(400);
    }
    expect((await post('/api/auth/register', { email: 'bad' })).statusCode).toBe(429);
  });
});

describe('sessions', () => {
  it('keeps the session in the sessions table with a 30-day expiry', async () => {
    const { user, cookie } = await register();
    const rows = await db.sql<{ sess: string; expire: Date }[]>`
      SELECT sess::text AS sess, expire FROM sessions WHERE sid = ${sidOf(cookie)}`;
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.sess)).toMatchObject({ userId: user.id, cookie: { httpOnly: true } });
    const lifetime = rows[0]!.expire.getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(29 * 24 * 3600 * 1000);
    expect(lifetime).toBeLessThanOrEqual(30 * 24 * 3600 * 1000);
  });

  it('pushes an active session forward at most once a day, without a store write per request', async () => {
    const { cookie } = await register();
    const sid = sidOf(cookie);
    const expireOf = async () =>
      (await db.sql<{ expire: Date }[]>`SELECT expire FROM sessions WHERE sid = ${sid}`)[0]!.expire;

    const fresh = await get('/api/ping', cookie);
    expect(fresh.statusCode).toBe(200);
    expect(setCookieOf(fresh)).toBeUndefined();

    // As if signed in 29 days ago and last renewed then.
    const longAgo = Date.now() - 29 * 24 * 3600 * 1000;
    await db.sql`
      UPDATE sessions SET expire = now() + interval '1 day',
        sess = jsonb_set(sess, '{renewedAt}', to_jsonb(${longAgo}::bigint))
      WHERE sid = ${sid}`;
    const renewed = await get('/api/ping', cookie);
    expect(renewed.statusCode).toBe(200);
    expect(setCookieOf(renewed)).toMatch(/^workbench\.sid=/);
    expect((await expireOf()).getTime() - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000);

    // The same cookie, with the attributes sign-up gave it and an expiry 30 days from now, in the browser
    // and in the stored session.
    const attributesOf = (header: string | undefined) =>
      header
        ?.split('; ')
        .slice(1)
        .filter((attribute) => !attribute.startsWith('Expires='));
    const registered = await db.sql<
      { sess: string }[]
    >`SELECT sess::text AS sess FROM sessions WHERE sid = ${sid}`;
    expect(attributesOf(setCookieOf(renewed))).toEqual(
      attributesOf(setCookieOf((await register()).response)),
    );
    expect(sessionCookieOf(renewed)).toBe(cookie);
    const browserExpiry = Date.parse(/Expires=([^;]+)/.exec(setCookieOf(renewed)!)![1]!);
    expect(browserExpiry - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000);
    const stored = JSON.parse(registered[0]!.sess) as { renewedAt: number; cookie: { expires: string } };
    expect(Date.parse(stored.cookie.expires) - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000);
    expect(stored.renewedAt).toBeGreaterThan(longAgo);

    // Renewed: the next request sends no cookie.
    expect(setCookieOf(await get('/api/ping', cookie))).toBeUndefined();
  });

  it('does not bring back a session signed out while it was being pushed forward', async () => {
    const { cookie } = await register();
    const sid = sidOf(cookie);
    const store = new PostgresSessionStore(db.sql, () => {}, 0);
    const session = (await store.read(sid))!;
    await get('/api/logout', cookie);
    expect(await store.renew(sid, { ...session, renewedAt: Date.now() })).toBe(false);
    expect(await db.sql`SELECT 1 FROM sessions WHERE sid = ${sid}`).toHaveLength(0);
    expect((await get('/api/ping', cookie)).statusCode).toBe(401);
  });

  it('clears a cookie that names no session, on any route', async () => {
    const { cookie } = await register();
    const forged = `workbench.sid=${sidOf(cookie)}.forgedsignature`;
    await get('/api/logout', cookie);
    for (const stale of [cookie, forged]) {
      for (const url of ['/api/ping', '/api/auth/user']) {
        const response = await get(url, stale);
        expect(response.statusCode).toBe(401);
        expect(setCookieOf(response)).toMatch(/^workbench\.sid=;.*Expires=Thu, 01 Jan 1970/i);
      }
    }
    // Signing in with a stale cookie sends only the new session's cookie.
    const signedIn = await post(
      '/api/auth/login',
      { email: (await register()).email, password: PASSWORD },
      { cookie },
    );
    expect(signedIn.statusCode).toBe(200);
    const cookies = [signedIn.headers['set-cookie']].flat();
    expect(cookies).toHaveLength(1);
    expect(sessionCookieOf(signedIn)).not.toBe(cookie);
    expect((await get('/api/ping', sessionCookieOf(signedIn))).statusCode).toBe(200);
  });

  it('stores nothing for a visitor who never signs in', async () => {
    const before = await sessionCount();
    const page = await get('/api/login');
    expect(setCookieOf(page)).toBeUndefined();
    await get('/api/ping');
    expect(await sessionCount()).toBe(before);
  });

  it('logout destroys the session: the row is gone and the cookie no longer works', async () => {
    const { cookie } = await register();
    const sid = sidOf(cookie);
    const response = await get('/api/logout', cookie);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/');
    expect(setCookieOf(response)).toMatch(/workbench\.sid=;.*Expires=Thu, 01 Jan 1970/i);
    expect(await db.sql`SELECT 1 FROM sessions WHERE sid = ${sid}`).toHaveLength(0);
    expect((await get('/api/auth/user', cookie)).statusCode).toBe(401);
    expect((await get('/api/ping', cookie)).statusCode).toBe(401);

    // Signed out already: still a redirect, not an error.
    expect((await get('/api/logout')).statusCode).toBe(302);
  });

  it('ignores expired session rows and sweeps them away', async () => {
    const { cookie } = await register();
    const sid = sidOf(cookie);
    await db.sql`UPDATE sessions SET expire = now() - interval '1 second' WHERE sid = ${sid}`;
    expect((await get('/api/auth/user', cookie)).statusCode).toBe(401);

    const store = new PostgresSessionStore(db.sql);
    expect(await store.sweep()).toBeGreaterThanOrEqual(1);
    expect(await db.sql`SELECT 1 FROM sessions WHERE sid = ${sid}`).toHaveLength(0);
  });

  it('reuses a session read for a moment without the table, and forgets it at once on sign-out', async () => {
    const store = new PostgresSessionStore(db.sql, () => {}, 60_000);
    const read = (sid: string) =>
      new Promise<unknown>((resolve, reject) =>
        store.get(sid, (error, session) => (error ? reject(error) : resolve(session))),
      );
    const { cookie } = await register();
    const sid = sidOf(cookie);
    const first = (await read(sid)) as { userId: string };
    expect(first.userId).toBeTruthy();
    // Changed behind the store's back: the session read a moment ago is still used, as a fresh copy.
    await db.sql`UPDATE sessions SET sess = jsonb_set(sess, '{userId}', '"someone-else"') WHERE sid = ${sid}`;
    const again = (await read(sid)) as { userId: string };
    expect(again).toEqual(first);
    expect(again).not.toBe(first);
    await new Promise<void>((resolve, reject) =>
      store.destroy(sid, (error) => (error ? reject(error) : resolve())),
    );
    expect(await read(sid)).toBeNull();
  });

  it('answers 401 from /api/auth/user when the signed-in account no longer exists', async () => {
    const { user, cookie } = await register();
    await db.sql`DELETE FROM users WHERE id = ${user.id}`;
    const response = await get('/api/auth/user', cookie);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ message: 'Unauthorized' });
  });

  it('refuses a cookie with a forged signature', async () => {
    const { cookie } = await register();
    const forged = `workbench.sid=${sidOf(cookie)}.forgedsignature`;
    expect((await get('/api/auth/user', forged)).statusCode).toBe(401);
  });
});

describe('the /api gate', () => {
  it('answers 401 on /api routes without a session, including the websocket and unknown paths', async () => {
    for (const url of ['/api/ping', '/api/auth/user', '/api/ws', '/api/flows?x=1', '/api']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(401);
      expect(response.json()).toMatchObject({ message: 'Unauthorized' });
    }
    const upgrade = await app.inject({
      method: 'GET',
      url: '/api/ws',
      headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13' },
    });
    expect(upgrade.statusCode).toBe(401);
    expect((await post('/api/ping', {})).statusCode).toBe(401);
  });

  it('leaves the sign-in page, sign-in, sign-up and logout open', async () => {
    expect((await get('/api/login')).statusCode).toBe(200);
    expect((await get('/api/login?error=credentials')).statusCode).toBe(200);
    expect((await get('/api/logout')).statusCode).toBe(302);
    expect((await post('/api/auth/login', {})).statusCode).toBe(400);
    expect((await post('/api/auth/register', {})).statusCode).toBe(400);
  });

  it('refuses cross-origin mutations with 403 and lets same-origin ones through', async () => {
    const { email, cookie } = await register();
    const host = 'workbench.test:5000';

    const foreign = await post(
      '/api/auth/login',
      { email, password: PASSWORD },
      { host, origin: 'https://evil.example' },
    );
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toMatchObject({
      code: 'forbidden_origin',
      message: 'Không nhận thay đổi gửi từ trang của origin khác.',
    });
    expect(setCookieOf(foreign)).toBeUndefined();

    const sibling = await post('/api/ping', {}, { host, origin: 'http://workbench.test:5001', cookie });
    expect(sibling.statusCode).toBe(403);
    const opaque = await post('/api/ping', {}, { host, origin: 'null', cookie });
    expect(opaque.statusCode).toBe(403);
    const foreignForm = await postForm(
      '/api/auth/login',
      { email, password: PASSWORD },
      { host, origin: 'https://evil.example' },
    );
    expect(foreignForm.statusCode).toBe(403);

    const same = await post(
      '/api/auth/login',
      { email, password: PASSWORD },
      { host, origin: 'http://workbench.test:5000' },
    );
    expect(same.statusCode).toBe(200);
    const sameDefaultPort = await post(
      '/api/ping',
      {},
      { host: 'workbench.test:443', origin: 'https://workbench.test', cookie },
    );
    expect(sameDefaultPort.statusCode).toBe(200);
    const noOrigin = await post('/api/ping', {}, { cookie });
    expect(noOrigin.statusCode).toBe(200);
    const foreignSocket = await app.inject({
      method: 'GET',
      url: '/api/ws',
      headers: { host, origin: 'https://evil.example', cookie, connection: 'Upgrade', upgrade: 'websocket' },
    });
    expect(foreignSocket.statusCode).toBe(403);

    // Reads are not mutations: a cross-origin GET still reaches the route (the browser keeps the answer from the page).
    const read = await app.inject({
      method: 'GET',
      url: '/api/ping',
      headers: { host, origin: 'https://evil.example', cookie },
    });
    expect(read.statusCode).toBe(200);
  });
});

describe('the sign-in page', () => {
  it('renders both forms as full HTML with no script', async () => {
    const response = await get('/api/login');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    const html = response.body;
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toContain('<form method="post" action="/api/auth/login"');
    expect(html).toContain('<form method="post" action="/api/auth/register"');
    for (const name of ['email', 'password', 'firstName', 'lastName'])
      expect(html).toContain(`name="${name}"`);
    for (const label of ['Đăng nhập', 'Tạo tài khoản', 'Email', 'Mật khẩu', 'Tên', 'Họ'])
      expect(html).toContain(label);
    expect(html).not.toContain('<script');
    expect(html).not.toContain('role="alert"');
    expect(html).not.toMatch(/<details open/);
  });

  it('shows the named problem next to its form, and only its own texts', async () => {
    const login = (await get('/api/login?error=credentials')).body;
    expect(login).toContain(`role="alert" data-testid="login-error">${WRONG_CREDENTIALS}<`);

    const signUp = (await get('/api/login?form=register&error=taken')).body;
    expect(signUp).toContain('data-testid="register-error">Email này đã được đăng ký<');
    expect(signUp).toMatch(/<details open>/);

    const injected = (await get(`/api/login?error=${encodeURIComponent('<b>Call us</b>')}&form=nonsense`))
      .body;
    expect(injected).not.toContain('Call us');
    expect(injected).not.toContain('role="alert"');
    expect((await get('/api/login?error=toString')).body).not.toContain('role="alert"');
  });

  it('sends a signed-in visitor to the app', async () => {
    const { cookie } = await register();
    const response = await get('/api/login', cookie);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/');
  });

  it('form posts redirect with 303: to / on success, back to the page with the problem otherwise', async () => {
    const email = newEmail();
    const created = await postForm('/api/auth/register', {
      email,
      password: PASSWORD,
      firstName: 'An',
      lastName: 'Lê',
    });
    expect(created.statusCode).toBe(303);
    expect(created.headers.location).toBe('/');
    const cookie = sessionCookieOf(created);
    expect((await get('/api/auth/user', cookie)).json()).toMatchObject({
      email,
      firstName: 'An',
      lastName: 'Lê',
    });

    const signedIn = await postForm('/api/auth/login', { email, password: PASSWORD });
    expect(signedIn.statusCode).toBe(303);
    expect(signedIn.headers.location).toBe('/');
    expect(setCookieOf(signedIn)).toBeDefined();

    const cases: [string, Record<string, string>, string][] = [
      ['/api/auth/login', { email, password: 'wrong password' }, '/api/login?error=credentials'],
      ['/api/auth/login', { email: 'nope', password: PASSWORD }, '/api/login?error=email'],
      [
        '/api/auth/register',
        { email, password: PASSWORD, firstName: 'An', lastName: 'Lê' },
        '/api/login?form=register&error=taken',
      ],
      [
        '/api/auth/register',
        { email: newEmail(), password: 'short', firstName: 'An', lastName: 'Lê' },
        '/api/login?form=register&error=password',
      ],
      [
        '/api/auth/register',
        { email: newEmail(), password: PASSWORD, firstName: ' ', lastName: 'Lê' },
        '/api/login?form=register&error=firstName',
      ],
    ];
    for (const [url, fields, location] of cases) {
      const response = await postForm(url, fields);
      expect(response.statusCode, `${url} ${JSON.stringify(fields)}`).toBe(303);
      expect(response.headers.location).toBe(location);
      expect(setCookieOf(response)).toBeUndefined();
    }
  });
  it('a refused form shows again what was typed in it, never the password, once', async () => {
    const { email } = await register();
    const refused = await postForm('/api/auth/register', {
      email,
      password: 'secret password 1',
      firstName: 'Lan "Anh"',
      lastName: '<Trần>',
    });
    expect(refused.statusCode).toBe(303);
    expect(refused.headers.location).toBe('/api/login?form=register&error=taken');
    // What was typed stays out of the address (history, logs) and out of the session: no session starts.
    expect(refused.headers.location).not.toContain(encodeURIComponent(email));
    expect(setCookieOf(refused)).toBeUndefined();
    const typed = typedCookieOf(refused);
    expect(typed).toMatch(/Path=\/api\/login/);
    expect(typed).toMatch(/HttpOnly/i);
    expect(typed).not.toContain('secret');

    const page = await get(refused.headers.location as string, typed!.split(';')[0]);
    const html = page.body;
    expect(html).toContain('data-testid="register-error">Email này đã được đăng ký<');
    expect(html).toMatch(new RegExp(`id="register-email"[^>]*value="${email}"[^>]*autofocus`));
    expect(html).toContain('value="Lan &#34;Anh&#34;"');
    expect(html).toContain('value="&#60;Trần&#62;"');
    expect(html).not.toContain('secret password');
    // Not into the sign-in form, and the page clears the cookie: a reload starts empty.
    expect(html).not.toMatch(/id="login-email"[^>]*value=/);
    expect(typedCookieOf(page)).toMatch(/workbench\.typed=;/);

    const wrongPassword = await postForm('/api/auth/login', { email, password: 'wrong password' });
    const signIn = (
      await get(wrongPassword.headers.location as string, typedCookieOf(wrongPassword)!.split(';')[0])
    ).body;
    expect(signIn).toMatch(new RegExp(`id="login-email"[^>]*value="${email}"`));
    expect(signIn).toMatch(/id="login-password"[^>]*autofocus/);

    // A cookie that is not one the server wrote shows nothing.
    const forged = await get('/api/login?form=register', 'workbench.typed=%7Bnot%20json');
    expect(forged.statusCode).toBe(200);
    expect(forged.body).not.toMatch(/id="register-email"[^>]*value=/);
  });
});
