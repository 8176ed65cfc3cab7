import type { FastifyInstance, Session } from 'fastify';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/api/app';
import { PostgresSessionStore } from '../src/api/auth/session-store';
import { connect } from '../src/api/database/connection';
import { EventStore } from '../src/eventstore';
import { TEST_POOL_SIZE } from './support/database';
import { createTestApp, signUp, TEST_APP_SECRET, type TestApp, testConfig } from './support/test-app';

/** A connection that counts the statements reading the `sessions` table sent through it (not in transactions). */
function countingSessionReads(sql: Sql) {
  const counter = { reads: 0 };
  const counted = new Proxy(sql, {
    apply(target, thisArg, args: unknown[]) {
      const [strings] = args;
      if (Array.isArray(strings) && strings.join('$').includes('FROM sessions')) counter.reads++;
      return Reflect.apply(target, thisArg, args);
    },
  });
  return { sql: counted, counter };
}

const LONG_REUSE_MS = 10 * 60_000;

const sidOf = (cookie: string) => decodeURIComponent(cookie.slice('workbench.sid='.length)).split('.')[0]!;

describe('sessions reused within a process', () => {
  let t: TestApp;
  /** A second server process on the same database, whose session reads are counted. */
  let second: FastifyInstance;
  let secondSql: Sql;
  let counter: { reads: number };

  beforeAll(async () => {
    t = await createTestApp();
    const raw = connect(t.db.url, { max: TEST_POOL_SIZE, appSecret: TEST_APP_SECRET });
    ({ sql: secondSql, counter } = countingSessionReads(raw));
    // Reused for far longer than any test takes, however busy the machine: only an ending can drop a copy.
    second = await buildApp(
      {
        config: testConfig({ databaseUrl: t.db.url }),
        sql: secondSql,
        store: new EventStore(secondSql),
      },
      { sessionReuseMs: LONG_REUSE_MS },
    );
  });
  afterAll(async () => {
    await second?.close();
    await secondSql?.end({ timeout: 5 });
    await t?.close();
  });

  const user = (app: FastifyInstance, cookie: string) =>
    app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } });

  it('answers requests within the reuse time without reading the session again', async () => {
    const { cookie } = await signUp(t.app);
    counter.reads = 0;
    expect((await user(second, cookie)).statusCode).toBe(200);
    expect(counter.reads).toBe(1);
    for (let i = 0; i < 3; i++) expect((await user(second, cookie)).statusCode).toBe(200);
    expect(counter.reads).toBe(1);
  });

  it('a sign-out on one process is a 401 on another at once, though it reused the session', async () => {
    const { cookie } = await signUp(t.app);
    const sid = sidOf(cookie);
    expect((await user(second, cookie)).statusCode).toBe(200);
    counter.reads = 0;
    expect((await user(second, cookie)).statusCode).toBe(200);
    expect(counter.reads).toBe(0);

    let heard!: () => void;
    const heardOnSecond = new Promise<void>((resolve) => {
      heard = resolve;
    });
    const stopWatching = await second.sessionStore.watchEndings(
      (ended) => ended === sid && heard(),
      () => {},
    );
    try {
      const signOut = await t.app.inject({ method: 'GET', url: '/api/logout', headers: { cookie } });
      expect(signOut.statusCode).toBe(302);
      await heardOnSecond;
      const after = await user(second, cookie);
      expect(after.statusCode).toBe(401);
      expect(after.json()).toMatchObject({ message: 'Unauthorized' });
      // The copy could not have grown old: the 401 came from the sign-out.
      expect(counter.reads).toBe(1);
    } finally {
      await stopWatching();
    }
  });

  it('never reuses a session past its expiry', async () => {
    let now = Date.now();
    const store = new PostgresSessionStore(
      t.db.sql,
      () => {},
      LONG_REUSE_MS,
      () => now,
    );
    const sid = `expiring-${now}`;
    const session = {
      userId: 'someone',
      cookie: { expires: new Date(now + 500) },
    } as unknown as Session;
    await new Promise<void>((resolve, reject) =>
      store.set(sid, session, (error) => (error ? reject(error) : resolve())),
    );
    const read = () =>
      new Promise<unknown>((resolve, reject) =>
        store.get(sid, (error, found) => (error ? reject(error) : resolve(found))),
      );
    expect(await read()).toMatchObject({ userId: 'someone' });
    // Its expiry passes (for the database too), well within the time a copy is reused.
    now += 600;
    await t.db.sql`UPDATE sessions SET expire = now() - interval '1 second' WHERE sid = ${sid}`;
    expect(await read()).toBeNull();
  });
});
