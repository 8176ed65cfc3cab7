import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../src/api/database/connection';
import { onOneConnection } from '../src/api/database/one-connection';
import { EventStore, sessionLost } from '../src/eventstore';
import { createTestDatabase, TEST_APP_SECRET, type TestDatabase } from './support/database';

/**
 * PostgreSQL ending a session in the middle of a command's statements, as a restart or an immediate stop
 * does, while some of them wait in postgres.js behind one it has not described yet on that connection.
 */
describe('a session lost under a reserved connection', () => {
  let db: TestDatabase;
  let pool: ReturnType<typeof connect>;
  let store: EventStore;
  const event = [{ type: 'Noted', data: {} }];

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());
  afterEach(() => pool.end({ timeout: 1 }));

  const onePool = () => {
    pool = connect(db.url, { max: 1, appSecret: TEST_APP_SECRET });
    store = new EventStore(pool);
  };
  const versionOf = async (streamId: string) =>
    (await db.sql`SELECT version FROM streams WHERE stream_id = ${streamId}`)[0]?.version ?? 0;

  it('fails the append at once when the statements behind an undescribed one were never sent', async () => {
    onePool();
    // A statement with parameters that this connection has not described yet holds back those behind it,
    // and COMMIT; the session ends while it runs.
    const appended = store.append('lost-1', 'test', 'no_stream', event, {
      withStatements: (tx) => [
        tx.unsafe('SELECT pg_terminate_backend(pg_backend_pid()) WHERE $1::int = 1', [1]),
        tx.unsafe('SELECT $1::int AS held', [2]),
      ],
    });
    const error = await appended.then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(sessionLost(error)).toBe(true);
    expect(await versionOf('lost-1')).toBe(0);
  });

  it('fails reads sent together at once when the session ends under them', async () => {
    onePool();
    const read = onOneConnection(pool, (connection) => [
      connection.unsafe('SELECT pg_terminate_backend(pg_backend_pid()) WHERE $1::int = 1', [1]),
      connection.unsafe('SELECT $1::int AS held', [2]),
    ]);
    const error = await read.then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(sessionLost(error)).toBe(true);
  });
});
