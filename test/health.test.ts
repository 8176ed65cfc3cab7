import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/api/app';
import { connect } from '../src/api/database/connection';
import { DATABASE_AWAY } from '../src/api/errors';
import { EventStore } from '../src/eventstore';
import { createTestDatabase, TEST_APP_SECRET, type TestDatabase } from './support/database';
import { type DatabaseLine, lineTo } from './support/database-line';
import { as, signUp, testConfig } from './support/test-app';

describe('health checks', () => {
  let db: TestDatabase;
  let line: DatabaseLine;
  let app: FastifyInstance;

  beforeAll(async () => {
    db = await createTestDatabase();
    const opened = await lineTo(db.url);
    line = opened.line;
    const sql = connect(opened.url, { appSecret: TEST_APP_SECRET });
    const config = testConfig({ databaseUrl: opened.url });
    app = await buildApp({ config, sql, store: new EventStore(sql) });
  });
  afterAll(async () => {
    await line.cut();
    await app?.close().catch(() => {});
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
  });

  it('say draining from the first moment of a graceful stop, while /healthz still answers', async () => {
    const stopped = app.stopGracefully(60_000);
    try {
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json().reasons).toContain('draining');
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/api/flows' })).statusCode).toBe(503);
    } finally {
      await stopped;
    }
  });
});
