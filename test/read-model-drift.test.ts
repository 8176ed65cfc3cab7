import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/api/app';
import { connect } from '../src/api/database/connection';
import { decider } from '../src/domain/execution/decider';
import type { ExecutionEvent } from '../src/domain/execution/types';
import {
  type AppendOptions,
  AppendTransactionLost,
  EventStore,
  type ExpectedVersion,
  type NewEvent,
} from '../src/eventstore';
import { checkProjections } from '../src/projections/check';
import { executionStreamId } from '../src/projections/project-execution-events';
import { createTestDatabase, TEST_APP_SECRET, type TestDatabase } from './support/database';
import { as, signUp, teaFlowExecution, testConfig } from './support/test-app';

/**
 * An event store whose next append on one stream has its transaction ended under it, as a ROLLBACK sent on
 * the handle of a dead session did once postgres.js had handed that session's connection to the append (the
 * driver as patched now refuses such a handle: first test): the events are rolled back, the read-model
 * statements behind them run each on its own, and COMMIT, finding no transaction, still answers COMMIT. The
 * store still catches it, whatever ends a transaction under an append.
 */
class EndedUnder extends EventStore {
  stream: string | null = null;

  override append(
    streamId: string,
    streamType: string,
    expectedVersion: ExpectedVersion,
    events: NewEvent[],
    options: AppendOptions = {},
  ) {
    const { withStatements } = options;
    if (streamId !== this.stream || !withStatements) {
      return super.append(streamId, streamType, expectedVersion, events, options);
    }
    this.stream = null;
    return super.append(streamId, streamType, expectedVersion, events, {
      ...options,
      withStatements: (tx, recorded) => [tx.unsafe('ROLLBACK'), ...withStatements(tx, recorded)],
    });
  }
}

describe('a command whose transaction was ended under it', () => {
  let db: TestDatabase;
  let store: EndedUnder;
  let app: Awaited<ReturnType<typeof buildApp>>;

  beforeAll(async () => {
    db = await createTestDatabase();
    store = new EndedUnder(db.sql);
    app = await buildApp({ config: testConfig({ databaseUrl: db.url }), sql: db.sql, store });
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('no longer happens through a handle of a dead session: the driver refuses what it sends', async () => {
    const pool = connect(db.url, { max: 1, appSecret: TEST_APP_SECRET });
    try {
      const dead = await pool.reserve();
      const [{ pid } = { pid: 0 }] = await dead<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
      await db.sql`SELECT pg_terminate_backend(${pid})`;
      await expect(dead`SELECT 1`).rejects.toThrow();
      // The pool connects the connection again; its first answer may still carry the dead session's error.
      await pool`SELECT 1`.catch(() => {});
      const next = await pool.reserve();
      try {
        await next`BEGIN`;
        await next`CREATE TABLE ended_under (x int)`;
        // The dead session's handle is refused (patches/postgres+3.4.9.patch): it cannot end the next
        // user's transaction, as its ROLLBACK did before.
        await expect(dead`ROLLBACK`).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
        dead.release();
        expect((await next`COMMIT`).command).toBe('COMMIT');
        const [table] = await db.sql`SELECT to_regclass('ended_under') IS NOT NULL AS "stored"`;
        expect(table?.stored).toBe(true);
      } finally {
        next.release();
      }
    } finally {
      await pool.end({ timeout: 1 });
    }
  });

  it('is an append that fails, whatever its COMMIT answered', async () => {
    const client = as(app, (await signUp(app)).cookie);
    const { executionId, steps, run } = await teaFlowExecution(client);
    const streamId = executionStreamId(executionId);
    const before = await db.sql`SELECT version FROM streams WHERE stream_id = ${streamId}`;
    store.stream = streamId;
    const started = store.append(
      streamId,
      'execution',
      before[0]!.version,
      [{ type: 'ExecutionStopped', data: { at: new Date().toISOString() } }],
      { withStatements: () => [] },
    );
    await expect(started).rejects.toThrow(AppendTransactionLost);
    expect(await db.sql`SELECT version FROM streams WHERE stream_id = ${streamId}`).toEqual(before);
    expect((await run(steps[0].id)).statusCode).toBe(200);
  });

  it('leaves the execution row as its log says once the next command is stored', async () => {
    const client = as(app, (await signUp(app)).cookie);
    const { executionId, steps, run } = await teaFlowExecution(client);
    const first = await run(steps[0].id);
    expect(first.statusCode, first.body).toBe(200);
    const streamId = executionStreamId(executionId);

    // Step 2's start is lost: its events rolled back, its request log and execution row written anyway.
    store.stream = streamId;
    // What it stored is unknown to it: 503, for the request to be sent again.
    expect((await run(steps[1].id)).statusCode).toBe(503);
    // The next commands find the row at a position their state is not at, and write it whole from the log.
    const approved = await client.put(`/api/step-results/${first.json().results[0].id}`, { approved: true });
    expect(approved.statusCode, approved.body).toBe(200);
    const again = await run(steps[1].id);
    expect(again.statusCode, again.body).toBe(200);

    const log = await db.sql<{ type: string; data: unknown }[]>`
      SELECT event_type AS type, data FROM events WHERE stream_id = ${streamId} ORDER BY stream_position`;
    const folded = log
      .map((e) => ({ type: e.type, data: e.data }) as ExecutionEvent)
      .reduce(decider.evolve, decider.initialState());
    const [row] = await db.sql<{ position: number; runs: unknown[] }[]>`
      SELECT position::int, runs FROM executions WHERE id = ${executionId}`;
    expect({ position: row?.position, runs: row?.runs }).toEqual({
      position: log.length,
      runs: JSON.parse(JSON.stringify(folded.runs)),
    });
    // What the lost start inserted by id stays: the check names it.
    const one = connect(db.url, { max: 1, appSecret: TEST_APP_SECRET });
    try {
      const { differences } = await checkProjections(one);
      const lostRuns = await db.sql<{ id: string }[]>`
        SELECT id FROM ai_request_logs WHERE execution_id = ${executionId}
          AND id NOT IN (
            SELECT (data ->> 'runId')::uuid FROM events WHERE stream_id = ${streamId} AND data ? 'runId')`;
      expect(lostRuns).toHaveLength(1);
      expect(differences.map(({ table, key, column }) => ({ table, key, column }))).toEqual([
        { table: 'ai_request_logs', key: lostRuns[0]!.id, column: null },
      ]);
    } finally {
      await one.end({ timeout: 1 });
    }
  });
});
