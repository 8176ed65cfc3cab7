import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onOneConnection } from '../src/api/database/one-connection';
import { createTestDatabase, type TestDatabase } from './support/database';

describe('reads sent together on one connection', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('answers each read, all from one backend', async () => {
    const [a, b, c] = await onOneConnection(db.sql, (connection) => [
      connection<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`,
      connection<{ pid: number }[]>`SELECT pg_backend_pid() AS pid, pg_sleep(0.05)`,
      connection<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`,
    ]);
    expect(a[0]!.pid).toBeGreaterThan(0);
    expect([b[0]!.pid, c[0]!.pid]).toEqual([a[0]!.pid, a[0]!.pid]);
  });

  it('throws the first failure once every read is answered, and the connection serves again', async () => {
    let slowAnswered = false;
    await expect(
      onOneConnection(db.sql, (connection) => [
        connection`SELECT 1 / 0`,
        connection`SELECT pg_sleep(0.05)`.then(() => {
          slowAnswered = true;
        }),
      ]),
    ).rejects.toMatchObject({ code: '22012' });
    expect(slowAnswered).toBe(true);
    const [[row]] = await onOneConnection(db.sql, (connection) => [connection`SELECT 2 AS two`]);
    expect(row).toEqual({ two: 2 });
  });
});
