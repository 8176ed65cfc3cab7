import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  failedSignIn,
  sharedRateLimitChecks,
  startTwoInstances,
  type TwoInstances,
} from '../support/shared-rate-limits';

// Needs the Redis on 127.0.0.1:6379 (`npx vitest run --project redis`). Every run counts under keys of its
// own (ioredis takes keyPrefix from the URL), so runs do not meet, and deletes them at the end.
const KEY_PREFIX = `workbench-test-${randomBytes(6).toString('hex')}:`;
const REDIS_URL = `redis://127.0.0.1:6379?keyPrefix=${KEY_PREFIX}`;

describe('rate limits shared through Redis (REDIS_URL set)', () => {
  /** Sees every key, without the prefix. */
  const redis = new Redis('redis://127.0.0.1:6379', { lazyConnect: true, maxRetriesPerRequest: 1 });
  let instances: TwoInstances;
  beforeAll(async () => {
    await redis.connect();
    instances = await startTwoInstances({ redisUrl: REDIS_URL });
  });
  afterAll(async () => {
    await instances?.close();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${KEY_PREFIX}*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
    redis.disconnect();
  });

  sharedRateLimitChecks(() => instances);

  it('counts in Redis, not in PostgreSQL', async () => {
    await failedSignIn(instances.first, '198.51.100.1');
    const key = `${KEY_PREFIX}rate-limit:POST/api/auth/login-198.51.100.1`;
    expect(await redis.get(key)).toBe('1');
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(55_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    const [row] = await instances.db.sql<{ count: number }[]>`SELECT count(*)::int AS count FROM rate_limits`;
    expect(row!.count).toBe(0);
  });

  it('starts a new window once the last one has ended', async () => {
    const { first, second } = instances;
    const ip = '198.51.100.2';
    for (let attempt = 0; attempt < 10; attempt++) await failedSignIn(first, ip);
    expect(await failedSignIn(second, ip)).toBe(429);
    const key = `${KEY_PREFIX}rate-limit:POST/api/auth/login-${ip}`;
    await redis.pexpire(key, 1);
    while ((await redis.exists(key)) === 1);
    expect(await failedSignIn(second, ip)).toBe(401);
  });
});
