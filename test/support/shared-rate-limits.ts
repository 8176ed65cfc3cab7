import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { buildApp } from '../../src/api/app';
import { signInMessages } from '../../src/api/auth/login-page';
import type { Config } from '../../src/api/runtime/config';
import { EventStore } from '../../src/eventstore';
import { createTestDatabase, type TestDatabase } from './database';
import { anotherInstance, as, signUp, testConfig } from './test-app';

/** The model-call limit the checks below count against. */
export const MODEL_CALLS_PER_MINUTE = 3;

/** Two server instances on one database, each with its own connections, as behind a load balancer. */
export interface TwoInstances {
  db: TestDatabase;
  first: FastifyInstance;
  second: FastifyInstance;
  close(): Promise<void>;
}

export async function startTwoInstances(overrides: Partial<Config> = {}): Promise<TwoInstances> {
  const db = await createTestDatabase();
  const config = testConfig({
    databaseUrl: db.url,
    modelCallsPerMinute: MODEL_CALLS_PER_MINUTE,
    ...overrides,
  });
  const first = await buildApp({ config, sql: db.sql, store: new EventStore(db.sql) });
  const other = await anotherInstance(db.url, config);
  return {
    db,
    first,
    second: other.app,
    async close() {
      await first.close();
      await other.close();
      await db.drop();
    },
  };
}

/** A sign-in from `ip` to an account that does not exist. */
export function signInAttempt(app: FastifyInstance, ip: string) {
  return app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: 'nobody@example.com', password: 'wrong password' },
    remoteAddress: ip,
  });
}

/** The status of a sign-in attempt from `ip`: 401 while the limit lets it through. */
export async function failedSignIn(app: FastifyInstance, ip: string): Promise<number> {
  return (await signInAttempt(app, ip)).statusCode;
}

/**
 * What every shared store must give: the sign-in limit and the model-call limit count on both instances
 * together, and each route, address and user keeps a count of its own. Each check calls from its own address.
 */
export function sharedRateLimitChecks(instances: () => TwoInstances) {
  it('counts sign-in attempts from one address on every instance against one limit of 10 a minute', async () => {
    const { first, second } = instances();
    const ip = '203.0.113.1';
    const statuses = [];
    for (let attempt = 0; attempt < 10; attempt++) {
      statuses.push(await failedSignIn(attempt % 2 === 0 ? first : second, ip));
    }
    expect(statuses).toEqual(Array(10).fill(401));

    for (const app of [first, second]) {
      const limited = await signInAttempt(app, ip);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({ message: signInMessages.tooManyAttempts });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    }
  });

  it('counts concurrent attempts on both instances exactly', async () => {
    const { first, second } = instances();
    const ip = '203.0.113.2';
    const statuses = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        // An invalid sign-in answers at once (400), after being counted.
        (i % 2 === 0 ? first : second)
          .inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'bad' }, remoteAddress: ip })
          .then((response) => response.statusCode),
      ),
    );
    expect(statuses.filter((status) => status === 400)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(6);
  });

  it('keeps sign-in, sign-up and every address apart', async () => {
    const { first, second } = instances();
    const ip = '203.0.113.3';
    for (let attempt = 0; attempt < 11; attempt++) await failedSignIn(attempt % 2 === 0 ? first : second, ip);
    expect(await failedSignIn(second, ip)).toBe(429);

    // Sign-up from the same address has attempts of its own, as has another address.
    const signUpAttempt = await second.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email: 'bad' },
      remoteAddress: ip,
    });
    expect(signUpAttempt.statusCode).toBe(400);
    expect(await failedSignIn(first, '203.0.113.4')).toBe(401);
    expect(await failedSignIn(second, '203.0.113.4')).toBe(401);
  });

  it("counts one user's model calls on every instance against one MODEL_CALLS_PER_MINUTE", async () => {
    const { first, second } = instances();
    const alice = (await signUp(first, 'Alice')).cookie;
    const bob = (await signUp(second, 'Bob')).cookie;
    const generate = (app: FastifyInstance, cookie: string) =>
      as(app, cookie).post('/api/ai/generate-workflow', { description: 'Onboarding' });

    const statuses = [];
    for (let call = 0; call < MODEL_CALLS_PER_MINUTE; call++) {
      statuses.push((await generate(call % 2 === 0 ? first : second, alice)).statusCode);
    }
    expect(statuses).toEqual(Array(MODEL_CALLS_PER_MINUTE).fill(200));
    for (const app of [first, second]) {
      const refused = await generate(app, alice);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({
        code: 'model_call_rate_limited',
        message: expect.stringMatching(/^Quá nhiều lần gọi model; vui lòng thử lại sau \d+ giây$/),
      });
    }

    // Another user has calls of their own; so has another model-calling route.
    expect((await generate(second, bob)).statusCode).toBe(200);
    expect((await generate(first, bob)).statusCode).toBe(200);
    const improve = await as(second, alice).post('/api/ai/flow-creator/improve', { description: 'blog' });
    expect(improve.statusCode).toBe(200);
  });
}
