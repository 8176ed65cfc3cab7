import type {
  FastifyRateLimitStore,
  FastifyRateLimitStoreCtor,
  RateLimitPluginOptions,
} from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import type { Sql } from 'postgres';
import { REPLAYED_HEADER } from '../idempotency/plugin';
import { rateLimitRefused } from '../telemetry/metrics';

/** Rows whose window has ended are deleted at most this often per process. */
const SWEEP_INTERVAL_MS = 60_000;

/** What @fastify/rate-limit hands a store's `child`: the route's options merged over the plugin's. */
interface RouteLimitOptions {
  routeInfo?: { method?: string | string[]; url?: string };
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
}

type Counted = (error: Error | null, result?: { current: number; ttl: number }) => void;

declare module 'fastify' {
  interface FastifyInstance {
    /** Gives back one count a request took from a route's limit (`route`: its method and path template). */
    giveBackRateLimitCount(route: { method: string; url: string }, key: string): Promise<void>;
  }
}

/** Where a route's count of one key is kept, in both stores: as @fastify/rate-limit's children name it. */
const countKeyOf = (route: { method: string; url: string }, key: string) =>
  `${route.method}${route.url}-${key}`;

/** A Redis count given back, never below 0 (its window may have ended meanwhile). */
const GIVE_BACK_SCRIPT = `
  local current = tonumber(redis.call('GET', KEYS[1]) or '0')
  if current > 0 then return redis.call('DECR', KEYS[1]) end
  return 0`;

/**
 * The options of @fastify/rate-limit for the app: a limit applies only where a route sets one, and every
 * count is shared by all server instances, in Redis when REDIS_URL is set, else in PostgreSQL. A Redis
 * client opened here is closed with the app.
 *
 * A count that cannot be made fails the request (skipOnError stays false): skipping it would lift the
 * sign-in limit against password guessing for as long as the store is down, and without PostgreSQL the
 * request could not be answered anyway.
 */
export function sharedRateLimits(app: FastifyInstance): RateLimitPluginOptions {
  const { redisUrl } = app.config;
  // Every refusal is counted by its route's template, whichever limit refused it.
  const onExceeded = (request: FastifyRequest) => rateLimitRefused(request.routeOptions.url);
  if (!redisUrl) {
    app.decorate('giveBackRateLimitCount', async (route: { method: string; url: string }, key: string) => {
      await app.sql`
        UPDATE rate_limits SET count = count - 1
        WHERE key = ${countKeyOf(route, key)} AND count > 0 AND reset_at > now()`;
    });
    return { global: false, store: postgresRateLimitStore(app.sql), onExceeded };
  }

  // Short timeouts and one retry: while Redis is away a limited request fails within seconds, not minutes.
  const redis = new Redis(redisUrl, {
    connectTimeout: 2_000,
    commandTimeout: 2_000,
    maxRetriesPerRequest: 1,
  });
  // Reconnecting, the client reports every failed attempt: the log says it once per outage.
  let reported = false;
  redis.on('error', (error) => {
    if (reported) return;
    reported = true;
    app.log.error({ err: error }, 'Redis (REDIS_URL) is unreachable: rate-limited requests fail');
  });
  redis.on('ready', () => {
    reported = false;
  });
  app.addHook('onClose', async () => {
    redis.disconnect();
  });
  const nameSpace = 'rate-limit:';
  app.decorate('giveBackRateLimitCount', async (route: { method: string; url: string }, key: string) => {
    await redis.eval(GIVE_BACK_SCRIPT, 1, nameSpace + countKeyOf(route, key));
  });
  return { global: false, redis, nameSpace, onExceeded };
}

/**
 * A route's onResponse hook for a limit on what requests make (invitations sent), not on how often they are
 * sent: a request the limit counted (its answer carries the limit's headers) that made nothing gives its
 * count back. Made is `madeStatus` answered afresh; a refusal, a conflict given up on, or the replay of an
 * earlier request's answer (the same Idempotency-Key) made nothing.
 */
export const countOnlyWhatIsMade =
  (madeStatus: number, keyOf: (request: FastifyRequest) => string) =>
  async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (reply.getHeader('x-ratelimit-limit') === undefined) return;
    const replayed = reply.getHeader(REPLAYED_HEADER) === 'true';
    if (reply.statusCode === madeStatus && !replayed) return;
    const route = { method: request.method, url: request.routeOptions.url ?? request.url };
    await request.server.giveBackRateLimitCount(route, keyOf(request)).catch((error: unknown) => {
      request.log.warn({ err: error }, 'giving back a rate-limit count failed');
    });
  };

/**
 * A store for @fastify/rate-limit counting in the `rate_limits` table, one row per route and key, in fixed
 * windows as its in-memory store does. One statement counts, so concurrent requests on any instance each get
 * their own number; the database's clock decides when a window ends.
 */
export function postgresRateLimitStore(sql: Sql): FastifyRateLimitStoreCtor {
  let nextSweep = 0;

  /** Deletes the rows whose window has ended, at most once a SWEEP_INTERVAL_MS, without delaying the count. */
  const sweepNowAndThen = () => {
    if (Date.now() < nextSweep) return;
    nextSweep = Date.now() + SWEEP_INTERVAL_MS;
    // A failed sweep leaves the rows to the next one.
    sql`DELETE FROM rate_limits WHERE reset_at < now()`.catch(() => {});
  };

  class PostgresRateLimitStore implements FastifyRateLimitStore {
    /** Each route's store puts its method and path before the key, so routes keep separate counts. */
    constructor(
      _options: unknown,
      private readonly prefix = '',
    ) {}

    incr(key: string, counted: Counted, timeWindow: number): void {
      sweepNowAndThen();
      sql<{ count: number; ttl: number }[]>`
        INSERT INTO rate_limits AS r (key, count, reset_at)
        VALUES (${this.prefix + key}, 1, now() + ${timeWindow}::bigint * interval '1 millisecond')
        ON CONFLICT (key) DO UPDATE SET
          count = CASE WHEN r.reset_at <= now() THEN 1 ELSE r.count + 1 END,
          reset_at = CASE WHEN r.reset_at <= now() THEN excluded.reset_at ELSE r.reset_at END
        RETURNING count, ceil(extract(epoch FROM reset_at - now()) * 1000)::float8 AS ttl`.then(
        ([row]) => counted(null, { current: row!.count, ttl: row!.ttl }),
        (error: Error) => counted(error),
      );
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      // Typed as the route's options; what arrives is the limit's options, with the route as routeInfo.
      const options = routeOptions as unknown as RouteLimitOptions;
      if (options.continueExceeding || options.exponentialBackoff) {
        throw new Error('The PostgreSQL rate-limit store counts fixed windows only');
      }
      const route = options.routeInfo ?? {};
      return new PostgresRateLimitStore(options, `${this.prefix}${route.method}${route.url}-`);
    }
  }
  return PostgresRateLimitStore;
}
