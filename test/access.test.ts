import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCESS,
  Browser,
  type Caller,
  type Fixtures,
  makeFixtures,
  operationOf,
  urlOf,
  uuidsIn,
} from './support/access-table';
import { createTestApp, OFFLINE_WITH_KEYS, signUp, type TestApp } from './support/test-app';

/**
 * Who may call each operation of the API, one entry per operation of the OpenAPI document: signed out it is
 * a 401 unless public, another user gets a 404 for the owner's resources (and none of the owner's ids in
 * what they get for their own), and the owner gets what they asked for.
 */

/** Sign-in and sign-up end the caller's session and start another: in each group they run after the rest. */
const keys = Object.keys(ACCESS).sort(
  (a, b) => Number(ACCESS[a]!.startsSession ?? false) - Number(ACCESS[b]!.startsSession ?? false),
);

describe('who may call each operation of the API', () => {
  let t: TestApp;
  let f: Fixtures;
  let operations: string[];
  const ownerIds = new Set<string>();
  let owner: Browser;
  let other: Browser;
  let signedOut: Browser;
  const callers = {} as Record<'A' | 'B' | 'signed out', Caller>;

  beforeAll(async () => {
    t = await createTestApp(
      { freeStepAllowance: 1_000 },
      // Every model call answered offline, also for an own API key (taken by its provider as it is saved).
      OFFLINE_WITH_KEYS,
    );
    const a = await signUp(t.app, 'Owner');
    const b = await signUp(t.app, 'Other');
    ownerIds.add(a.user.id);
    owner = new Browser(t.app, a.cookie, ownerIds);
    other = new Browser(t.app, b.cookie);
    signedOut = new Browser(t.app, undefined);
    callers.A = { name: 'A', email: a.email };
    callers.B = { name: 'B', email: b.email };
    callers['signed out'] = { name: 'signed out', email: a.email };

    const document = await owner.made(200, 'GET', '/api/openapi.json');
    operations = Object.entries(document.paths as Record<string, object>).flatMap(([path, byMethod]) =>
      Object.keys(byMethod).map((method) => `${method.toUpperCase()} ${path}`),
    );
    f = await makeFixtures(t.app, owner, a.email, null, ownerIds);
    for (const id of Object.values(f)) if (id !== null) expect(ownerIds.has(id), id).toBe(true);
  });
  afterAll(() => t?.close());

  it('has an entry for every operation of the OpenAPI document, and none for an operation not in it', () => {
    const missing = operations.filter((operation) => !(operation in ACCESS));
    expect(missing, `add an access entry for ${missing.join(', ')}`).toEqual([]);
    const stale = Object.keys(ACCESS).filter((key) => !operations.includes(key));
    expect(stale, `no longer in the OpenAPI document, remove the entry for ${stale.join(', ')}`).toEqual([]);
    expect(operations).toHaveLength(Object.keys(ACCESS).length);
  });

  it('answers the OpenAPI document itself to anyone, so tools can read it', async () => {
    const response = await signedOut.call('GET', '/api/openapi.json');
    expect(response.statusCode).toBe(200);
    expect(response.json().openapi).toBe('3.1.0');
  });

  describe('signed out', () => {
    it.each(keys)('%s', async (key) => {
      const entry = ACCESS[key]!;
      const { method } = operationOf(key);
      const response = await signedOut.call(method, urlOf(key, f), entry.body?.(f, callers['signed out']));
      if (entry.access === 'public') {
        expect(response.statusCode, response.body).toBe(entry.signedOut);
      } else {
        expect(response.statusCode, response.body).toBe(401);
        expect(response.json()).toMatchObject({ message: 'Unauthorized' });
      }
    });
  });

  describe("another user, with the owner's ids", () => {
    it.each(keys)('%s', async (key) => {
      const entry = ACCESS[key]!;
      const { method } = operationOf(key);
      const url = urlOf(key, f);
      const body = entry.body?.(f, callers.B);
      const response = await other.call(method, url, body);
      if (entry.access === 'owner') {
        expect(response.statusCode, response.body).toBe(404);
      } else {
        expect(response.statusCode, response.body).toBeGreaterThanOrEqual(200);
        expect(response.statusCode, response.body).toBeLessThan(300);
      }
      // None of the owner's ids, but for those the request itself named.
      const sent = new Set(uuidsIn(url + JSON.stringify(body ?? null)));
      const leaked = uuidsIn(response.body).filter((id) => ownerIds.has(id) && !sent.has(id));
      expect(leaked, `the owner's ids in ${response.body}`).toEqual([]);
    });
  });

  describe('the owner', () => {
    it.each(keys)('%s', async (key) => {
      const entry = ACCESS[key]!;
      const { method } = operationOf(key);
      const response = await owner.call(method, urlOf(key, f), entry.body?.(f, callers.A));
      expect(response.statusCode, response.body).toBeGreaterThanOrEqual(200);
      expect(response.statusCode, response.body).toBeLessThan(300);
    });
  });
});
