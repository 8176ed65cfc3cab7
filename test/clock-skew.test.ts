import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/api/app';
import { connect } from '../src/api/database/connection';
import { EventStore } from '../src/eventstore';
import { TEST_POOL_SIZE } from './support/database';
import { gatedModel } from './support/gated-model';
import {
  as,
  createTestApp,
  signUp,
  TEST_APP_SECRET,
  type TestApp,
  teaFlowExecution,
  testConfig,
} from './support/test-app';

const EIGHT_DAYS_MS = 8 * 24 * 60 * 60 * 1000;

/**
 * Two processes on one database, the second's clock 8 days ahead of the machine's (and the database's): it
 * must say so, and must not take the first's runs for abandoned.
 */
describe('a server process whose clock is far off the database’s', () => {
  const model = gatedModel();
  const resolveModel = () => ({ provider: model.provider, keySource: 'default' as const });
  let t: TestApp;
  let ahead: FastifyInstance;
  let aheadSql: Sql;
  const logged: { level: number; msg: string }[] = [];

  beforeAll(async () => {
    t = await createTestApp({}, { resolveModel });
    aheadSql = connect(t.db.url, { max: TEST_POOL_SIZE, appSecret: TEST_APP_SECRET });
    const log = new Writable({
      write(chunk, _encoding, done) {
        logged.push(JSON.parse(String(chunk)));
        done();
      },
    });
    ahead = await buildApp(
      {
        config: testConfig({ databaseUrl: t.db.url }),
        sql: aheadSql,
        store: new EventStore(aheadSql),
        clock: () => Date.now() + EIGHT_DAYS_MS,
        resolveModel,
      },
      { logger: { level: 'warn', stream: log } },
    );
  });
  afterAll(async () => {
    model.open();
    await ahead?.close();
    await aheadSql?.end({ timeout: 5 });
    await t?.close();
  });

  it('warns at start and is not ready, naming the clock; a process whose clock is right is ready', async () => {
    expect(logged).toContainEqual(
      expect.objectContaining({
        level: 40,
        msg: expect.stringMatching(/clock is 691\d{3} s ahead of the database's/),
      }),
    );
    const ready = await ahead.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'unavailable', reasons: ['clock'] });
    const right = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(right.json()).toEqual({ status: 'ready', reasons: [] });
  });

  it('leaves alone a run the other process is making: its sweep reads the database’s clock', async () => {
    const alice = as(t.app, (await signUp(t.app, 'Lan')).cookie);
    const { executionId, steps, run } = await teaFlowExecution(alice);
    const answer = run(steps[0].id);
    await expect.poll(model.calls).toBe(1);

    // Neither its own clock nor the machine's may decide: the process sweeping reads 8 days ahead either way.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + EIGHT_DAYS_MS });
    let failed: number;
    try {
      failed = await ahead.crashSweep.run();
    } finally {
      vi.useRealTimers();
    }
    expect(failed).toBe(0);
    expect((await alice.get(`/api/executions/${executionId}`)).json().runs[0]).toMatchObject({
      status: 'running',
    });

    model.release();
    expect((await answer).statusCode).toBe(200);
    expect((await alice.get(`/api/executions/${executionId}`)).json().runs[0]).toMatchObject({
      status: 'succeeded',
    });
  });
});
