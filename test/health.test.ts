import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/api/app';
import { connect } from '../src/api/database/connection';
import { DATABASE_AWAY } from '../src/api/http/errors';
import { EventStore } from '../src/eventstore';
import { createTestDatabase, TEST_APP_SECRET, type TestDatabase } from './support/database';
import { type DatabaseLine, lineTo } from './support/database-line';
import { as, signUp, testConfig } from './support/test-app';

describe('health checks', () => {
  let db: TestDatabase;
  let line: DatabaseLine;
  let app: FastifyInstance;
  let sql: Sql;

  beforeAll(async () => {
    db = await createTestDatabase();
    const opened = await lineTo(db.url);
    line = opened.line;
    const config = testConfig({ databaseUrl: opened.url });
    sql = connect(opened.url, { max: config.databasePoolSize, appSecret: TEST_APP_SECRET });
    app = await buildApp({ config, sql, store: new EventStore(sql) });
  });
  afterAll(async () => {
    await line.cut();
    await app?.close().catch(() => {});
    await sql?.end({ timeout: 5 });
    await db?.drop();
  });

  it('answer signed out: the process is up, and ready to serve', async () => {
    const health = await app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', reasons: [] });
  });

  it('say a migration of this version is missing from the database', async () => {
    const [last] = await db.sql<{ name: string }[]>`
      DELETE FROM schema_migrations
      WHERE name = (SELECT max(name) FROM schema_migrations) RETURNING name`;
    try {
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'unavailable', reasons: ['migrations'] });
    } finally {
      await db.sql`INSERT INTO schema_migrations (name) VALUES (${last!.name})`;
    }
  });

  it('say the database is away while it is, and requests answer 503 retryable, not 500', async () => {
    const user = as(app, (await signUp(app, 'Lan')).cookie);
    await line.cut();
    try {
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json().reasons).toContain('database');
      // The log tailer's next read fails too: this process would miss other processes' events.
      await vi.waitFor(
        async () =>
          expect((await app.inject({ method: 'GET', url: '/readyz' })).json().reasons).toContain(
            'live updates',
          ),
        { timeout: 15_000, interval: 100 },
      );
      const flows = await user.get('/api/flows');
      expect(flows.statusCode).toBe(503);
      expect(flows.json()).toMatchObject({ message: DATABASE_AWAY, retryable: true });
      const created = await user.post('/api/flows', {
        name: 'While away',
        description: 'made while the database is away',
      });
      expect(created.statusCode).toBe(503);
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await line.open();
    }
    await vi.waitFor(
      async () => expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200),
      { timeout: 15_000, interval: 100 },
    );
    expect((await user.get('/api/flows')).statusCode).toBe(200);
  }, 90_000); // Two waits of up to 15 s each (the tailer's failed read, the way back): more than 30 s on a busy machine.

  it('answer 503 retryable, not 500, while PostgreSQL has no connection to give (too many clients)', async () => {
    // A role of its own whose CONNECTION LIMIT is then 0: its open connections stay, every new one is refused
    // with 53300, as when max_connections is reached. A superuser is never limited, so the role is not one; it
    // acts with the privileges of the role that owns the test database.
    const role = `limited_${randomBytes(6).toString('hex')}`;
    await db.sql.unsafe(`CREATE ROLE ${role} LOGIN PASSWORD 'limited'`);
    await db.sql.unsafe(`GRANT ${(await db.sql`SELECT current_user AS name`)[0]!.name} TO ${role}`);
    const url = new URL(db.url);
    url.username = role;
    url.password = 'limited';
    const config = testConfig({ databaseUrl: url.toString() });
    const limitedSql = connect(url.toString(), { max: config.databasePoolSize, appSecret: TEST_APP_SECRET });
    const limited = await buildApp({ config, sql: limitedSql, store: new EventStore(limitedSql) });
    try {
      const user = as(limited, (await signUp(limited, 'Minh')).cookie);
      expect((await user.get('/api/flows')).statusCode).toBe(200);
      await db.sql.unsafe(`ALTER ROLE ${role} CONNECTION LIMIT 0`);
      await db.sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = ${role}`;
      await vi.waitFor(
        async () => {
          const [left] =
            await db.sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE usename = ${role}`;
          expect(left!.n).toBe(0);
        },
        { timeout: 10_000, interval: 50 },
      );
      const flows = await user.get('/api/flows');
      expect(flows.statusCode).toBe(503);
      expect(flows.headers['content-type']).toContain('application/problem+json');
      expect(flows.headers['retry-after']).toBe('2');
      expect(flows.json()).toMatchObject({ code: 'unavailable', message: DATABASE_AWAY, retryable: true });
      await db.sql.unsafe(`ALTER ROLE ${role} CONNECTION LIMIT -1`);
      await vi.waitFor(async () => expect((await user.get('/api/flows')).statusCode).toBe(200), {
        timeout: 15_000,
        interval: 100,
      });
    } finally {
      await db.sql.unsafe(`ALTER ROLE ${role} CONNECTION LIMIT -1`);
      await limited.close().catch(() => {});
      await limitedSql.end({ timeout: 5 });
      await db.sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = ${role}`;
      await db.sql.unsafe(`DROP OWNED BY ${role}`);
      await db.sql.unsafe(`DROP ROLE ${role}`);
    }
  });

  it('say draining from the first moment of a graceful stop, while /healthz still answers', async () => {
    const stopped = app.stopGracefully(60_000);
    try {
      // Sent together at once: the process closes after a second of draining, which three requests one
      // after another may outlast on a busy machine.
      const [ready, health, flows] = await Promise.all(
        ['/readyz', '/healthz', '/api/flows'].map((url) => app.inject({ method: 'GET', url })),
      );
      expect(ready!.statusCode).toBe(503);
      expect(ready!.json().reasons).toContain('draining');
      expect(health!.statusCode).toBe(200);
      expect(flows!.statusCode).toBe(503);
    } finally {
      await stopped;
    }
  });
});
