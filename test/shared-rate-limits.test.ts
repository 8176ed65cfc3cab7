import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  failedSignIn,
  sharedRateLimitChecks,
  startTwoInstances,
  type TwoInstances,
} from './support/shared-rate-limits';
import { anotherInstance } from './support/test-app';

describe('rate limits shared through PostgreSQL (REDIS_URL unset)', () => {
  let instances: TwoInstances;
  beforeAll(async () => {
    instances = await startTwoInstances();
  });
  afterAll(() => instances?.close());

  sharedRateLimitChecks(() => instances);

  it('keeps the counts in rate_limits, one row per route and key', async () => {
    const { first, db } = instances;
    await failedSignIn(first, '198.51.100.1');
    const rows = await db.sql<{ key: string; count: number }[]>`
      SELECT key, count FROM rate_limits WHERE key LIKE '%198.51.100.1'`;
    expect(rows).toEqual([{ key: 'POST/api/auth/login-198.51.100.1', count: 1 }]);
  });

  it('starts a new window once the last one has ended', async () => {
    const { first, second, db } = instances;
    const ip = '198.51.100.2';
    for (let attempt = 0; attempt < 10; attempt++) await failedSignIn(first, ip);
    expect(await failedSignIn(second, ip)).toBe(429);

    await db.sql`
      UPDATE rate_limits SET reset_at = now() - interval '1 second' WHERE key = ${`POST/api/auth/login-${ip}`}`;
    expect(await failedSignIn(second, ip)).toBe(401);
    const [row] = await db.sql<{ count: number; left: number }[]>`
      SELECT count, extract(epoch FROM reset_at - now())::float8 AS left
      FROM rate_limits WHERE key = ${`POST/api/auth/login-${ip}`}`;
    expect(row!.count).toBe(1);
    expect(row!.left).toBeGreaterThan(55);
    expect(row!.left).toBeLessThanOrEqual(60);
  });

  it('deletes rows whose window has ended', async () => {
    const { db } = instances;
    await db.sql`
      INSERT INTO rate_limits (key, count, reset_at) VALUES
        ('POST/api/auth/login-192.0.2.1', 4, now() - interval '1 minute'),
        ('POST/api/auth/login-192.0.2.2', 4, now() + interval '1 minute')`;
    // A new instance sweeps with its first count.
    const third = await anotherInstance(db.url);
    try {
      await failedSignIn(third.app, '192.0.2.3');
      await vi.waitFor(async () => {
        const keys = await db.sql<{ key: string }[]>`
          SELECT key FROM rate_limits WHERE key LIKE 'POST/api/auth/login-192.0.2._' ORDER BY key`;
        expect(keys.map((row) => row.key)).toEqual([
          'POST/api/auth/login-192.0.2.2',
          'POST/api/auth/login-192.0.2.3',
        ]);
      });
    } finally {
      await third.close();
    }
  });
});
