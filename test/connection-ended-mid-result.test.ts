import { once } from 'node:events';
import net from 'node:net';
import path from 'node:path';
import postgres, { type Sql } from 'postgres';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connect, socketDirectoryIn } from '../src/api/database/connection';
import { readExecutionView } from '../src/api/executions/execution-view';
import type { TestDatabase } from './support/database';
import { as, createTestApp, signUp, type TestApp, teaFlowExecution } from './support/test-app';

/**
 * The database driver, as patched (patches/postgres+3.4.9.patch), answers each statement with its own rows
 * after the one before it on the connection failed part way through its result: with an error after some
 * rows, or with its backend terminated under it (a database stopped under load). Unpatched, the rows counter
 * kept the failed statement's count, so the next result had holes where its first rows belong (a
 * `const [row] = await sql…` read undefined: an execution that exists answered 404); and the error of a
 * backend terminated under a statement was settled again once connected to the next backend, failing the
 * first statement sent there.
 */

let testApp: TestApp;
let db: TestDatabase;
let admin: Sql;
const pools: Sql[] = [];

beforeAll(async () => {
  testApp = await createTestApp();
  db = testApp.db;
  admin = postgres(db.url, { max: 1, onnotice: () => {} });
});
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.end({ timeout: 1 })));
});
afterAll(async () => {
  await admin?.end({ timeout: 1 });
  await testApp?.close();
});

/** A pool of one connection (so every statement meets what the one before left), closed after the test. */
function onePool(options: postgres.Options<Record<string, postgres.PostgresType>> = {}): Sql {
  const sql = postgres(db.url, { max: 1, onnotice: () => {}, ...options });
  pools.push(sql);
  return sql;
}

/** How a statement ended: its error's code, or the rows it answered. */
const outcome = (statement: Promise<unknown>) =>
  statement.then(
    (rows) => ({ rows: [...(rows as unknown[])] }),
    (error: { code?: string; message: string }) => ({ error: error.code ?? error.message }),
  );

/** The rows each of these statements answers: a number a row, each row where it belongs. */
const numbered = (sql: Sql, n: number) => sql`SELECT g AS n FROM generate_series(1, ${n}::int) g`;

/** The advisory lock a statement is held on, part way through its result, until its backend is ended. */
const HELD = 7_340_977;

/**
 * Ends the backend of the pool's one connection while a statement is part way through its result (its first
 * row sent, its second waiting for a lock this test holds), as stopping PostgreSQL does; the pid of the
 * backend ended.
 */
async function terminatedMidResult(sql: Sql): Promise<number> {
  const [backend] = await sql<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
  const pid = backend!.pid;
  await admin`SELECT pg_advisory_lock(${HELD})`;
  try {
    const ended = outcome(
      sql`SELECT g AS n, CASE WHEN g = 2 THEN pg_advisory_lock(${HELD})::text END AS held
          FROM generate_series(1, 2) g`,
    );
    await expect
      .poll(
        async () => (await admin`SELECT wait_event FROM pg_stat_activity WHERE pid = ${pid}`)[0]?.wait_event,
      )
      .toBe('advisory');
    await admin`SELECT pg_terminate_backend(${pid})`;
    expect(await ended).toEqual({ error: 'CONNECTION_CLOSED' });
  } finally {
    await admin`SELECT pg_advisory_unlock(${HELD})`;
  }
  return pid;
}

describe('a statement that fails part way through its result', () => {
  it('fails alone: the next statement on the connection answers its own rows, each where it belongs', async () => {
    const sql = onePool();
    // Three rows are sent, then the fourth divides by zero.
    const failing = outcome(sql`SELECT 1 / (4 - g) AS n FROM generate_series(1, 10) g`);
    const next = outcome(numbered(sql, 2));
    expect(await failing).toEqual({ error: '22012' });
    expect(await next).toEqual({ rows: [{ n: 1 }, { n: 2 }] });
    const [row] = await sql`SELECT 'found' AS found`;
    expect(row).toEqual({ found: 'found' });
  });

  it('with its backend terminated under it: the next backend answers its own statements, whole and from the first', async () => {
    const sql = onePool();
    const pid = await terminatedMidResult(sql);

    // Not the old backend's 57P01, and not its row count either.
    expect(await outcome(sql`SELECT pg_backend_pid() <> ${pid} AS "newBackend"`)).toEqual({
      rows: [{ newBackend: true }],
    });
    expect(await outcome(numbered(sql, 3))).toEqual({ rows: [{ n: 1 }, { n: 2 }, { n: 3 }] });
    const [row] = await sql`SELECT 'found' AS found`;
    expect(row).toEqual({ found: 'found' });
  });

  it('with its backend terminated while the connection is still being opened: the statement it waits for is answered', async () => {
    // The pool's connections are told apart by their application name, to be terminated by it.
    const name = `types-${process.pid}-${Date.now()}`;
    const terminated: Promise<unknown>[] = [];
    let opened = 0;
    const { url, socketDirectory } = socketDirectoryIn(db.url);
    const { hostname, port } = new URL(url);
    // The first connection's backend is terminated when the driver sends its first statement of the opening
    // (the array types it fetches), which is never sent: it meets the end of its backend.
    const socket = async () => {
      const connection = socketDirectory
        ? net.connect(path.join(socketDirectory, `.s.PGSQL.${port}`))
        : net.connect(Number(port), hostname);
      await once(connection, 'connect');
      if (++opened === 1) {
        const write = connection.write.bind(connection) as (chunk: Buffer, callback?: () => void) => boolean;
        connection.write = ((chunk: Buffer, callback?: () => void) => {
          if (!Buffer.from(chunk).includes('typarray')) return write(chunk, callback);
          // Sent now (a statement of postgres.js is sent when it is first awaited).
          terminated.push(
            admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ${name}`.then(
              (rows) => rows,
            ),
          );
          return true;
        }) as typeof connection.write;
      }
      return connection;
    };
    const unhandled: unknown[] = [];
    const recordUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', recordUnhandled);
    try {
      // `socket` (a connected socket of our own) is an option of postgres.js its typings leave out.
      const sql = onePool({ connection: { application_name: name }, socket } as postgres.Options<
        Record<string, postgres.PostgresType>
      >);
      expect(await outcome(numbered(sql, 2))).toEqual({ rows: [{ n: 1 }, { n: 2 }] });
      expect(terminated).toHaveLength(1);
      expect(opened).toBe(2);
      await Promise.all(terminated);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', recordUnhandled);
    }
  });
});

describe('an execution read on a connection whose backend was terminated part way through a result', () => {
  it('is found by its owner, on every read after', async () => {
    const { cookie, user } = await signUp(testApp.app);
    const { executionId } = await teaFlowExecution(as(testApp.app, cookie));
    const sql = connect(db.url, { max: 1 });
    pools.push(sql);
    expect((await readExecutionView(sql, executionId, user.id)).id).toBe(executionId);
    await terminatedMidResult(sql);
    for (let read = 0; read < 3; read++)
      expect((await readExecutionView(sql, executionId, user.id)).id).toBe(executionId);
  });
});
