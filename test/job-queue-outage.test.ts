import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/api/app';
import { connect } from '../src/api/database/connection';
import { EventStore } from '../src/eventstore';
import { TEST_POOL_SIZE } from './support/database';
import { type DatabaseLine, lineTo } from './support/database-line';
import { createTestApp, TEST_APP_SECRET, type TestApp, testConfig } from './support/test-app';

/**
 * The database goes away under the job queue and comes back: the log says so once, in one line, and once more
 * when the queue reaches the database again (QueueOutage's unit test holds the many errors of one outage to
 * that one line).
 */
describe('the job queue while the database is away', () => {
  let t: TestApp;
  let line: DatabaseLine;
  let sql: Sql;
  let app: FastifyInstance;
  const logged: { level: number; msg: string }[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    const near = await lineTo(t.db.url);
    line = near.line;
    sql = connect(near.url, { max: TEST_POOL_SIZE, appSecret: TEST_APP_SECRET });
    const log = new Writable({
      write(chunk, _encoding, done) {
        logged.push(JSON.parse(String(chunk)));
        done();
      },
    });
    app = await buildApp(
      { config: testConfig({ databaseUrl: near.url }), sql, store: new EventStore(sql) },
      { logger: { level: 'info', stream: log } },
    );
  });
  afterAll(async () => {
    await line?.open();
    await app?.close();
    await sql?.end({ timeout: 5 });
    await line?.cut();
    await t?.close();
  });

  const queueLines = () => logged.filter((entry) => /job queue/i.test(entry.msg));

  it('warns once in one line, without a stack, and tells once when it is back', async () => {
    // A query of the queue's just before: its connection waits in the queue's pool when the line is cut.
    expect(await app.queue.jobOf('mail', randomUUID())).toBeNull();
    await line.cut();
    await expect.poll(() => queueLines().length, { timeout: 60_000 }).toBe(1);
    expect(queueLines()[0]).toMatchObject({
      level: 40,
      msg: expect.stringMatching(/^The job queue cannot reach the database \(.+\); it keeps trying$/),
    });
    expect(queueLines()[0]).not.toHaveProperty('err');

    await line.open();
    await expect.poll(() => queueLines().length, { timeout: 60_000 }).toBe(2);
    expect(queueLines()[1]).toMatchObject({ level: 30, msg: 'The job queue reaches the database again' });
    // The queue meets the outage at its next poll or upkeep: on a busy machine that can take a while.
  }, 150_000);
});
