import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSTANCE_LOCK_CLASS, ServerInstance } from '../src/api/runtime/server-instance';
import { createTestDatabase, type TestDatabase } from './support/database';

describe('server instances on one database', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  it('each process has its own number; the others see it alive until it stops', async () => {
    const [a, b] = await Promise.all([ServerInstance.start(db.sql), ServerInstance.start(db.sql)]);
    expect(a!.id).not.toBe(b!.id);
    expect(await a!.gone([b!.id])).toEqual([]);
    expect(await b!.gone([a!.id, a!.id])).toEqual([]);
    await b!.stop();
    expect(await a!.gone([b!.id])).toEqual([b!.id]);
    await a!.stop();
  });

  it('a process whose lock connection is cut looks dead, and takes its lock again at the next look', async () => {
    const [a, b] = await Promise.all([ServerInstance.start(db.sql), ServerInstance.start(db.sql)]);
    const id = a!.id;
    // What a crash does to the lock, done to a process that lives on (PostgreSQL restarted under it, say).
    await db.sql`
      SELECT pg_terminate_backend(pid) FROM pg_locks
      WHERE locktype = 'advisory' AND classid = ${INSTANCE_LOCK_CLASS} AND objid = ${id} AND objsubid = 2`;
    await expect.poll(() => b!.gone([id]), { timeout: 10_000 }).toEqual([id]);
    await a!.keepHeld();
    expect(a!.id).toBe(id);
    expect(await b!.gone([id])).toEqual([]);
    // The pool it came from still serves queries.
    expect(await db.sql`SELECT 1 AS one`).toEqual([{ one: 1 }]);
    await Promise.all([a!.stop(), b!.stop()]);
    expect(await a!.gone([id])).toEqual([id]);
  });

  it('a process alone knows it; another starting is heard of at once, its end within the next count', async () => {
    const a = await ServerInstance.start(db.sql);
    await a.watchPeers();
    expect(a.alone).toBe(true);
    const b = await ServerInstance.start(db.sql);
    await b.watchPeers();
    expect(b.alone).toBe(false);
    await expect.poll(() => a.alone, { timeout: 5_000 }).toBe(false);
    await b.stop();
    await expect.poll(() => a.alone, { timeout: 30_000, interval: 500 }).toBe(true);
    await a.stop();
  }, 40_000);
});
