import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Sql } from 'postgres';
import { z } from 'zod';
import { migrationNames } from '../database/migrate';
import { type Clock, clockSkewMs, clockSkewWarning, isClockSkewed, skewOf } from './clock';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answered while the process stops too (the graceful stop's 503 passes it by): the health checks. */
    answersWhileStopping?: boolean;
  }

  interface FastifyInstance {
    /** Why this process cannot serve now, as GET /readyz answers it; empty: it can. */
    notReadyReasons(): Promise<NotReadyReason[]>;
  }
}

export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';

/** Why a process cannot serve, as /readyz names it. */
export const NOT_READY_REASONS = ['database', 'migrations', 'live updates', 'clock', 'draining'] as const;
export type NotReadyReason = (typeof NOT_READY_REASONS)[number];

/** How long /readyz waits for the database before it says the database does not answer. */
const DATABASE_CHECK_MS = 2_000;

const healthAnswer = z.object({ status: z.literal('ok') });
const readyAnswer = z.object({
  status: z.enum(['ready', 'unavailable']),
  /** What is not ready, when something is: `database`, `migrations`, `live updates`, `clock`, `draining`. */
  reasons: z.array(z.string()),
});

/**
 * Health checks for a load balancer, a process manager or an operator, open without sign-in and cheap:
 * GET /healthz says the process answers (200 while it stops, too); GET /readyz says whether it can serve
 * now (200), or why not (503): the database does not answer within 2 s, a migration of this version is not
 * recorded in it, the log tailer that carries every process's events to this one is not reading, this
 * process's clock is more than a minute off the database's (also warned of at start), or the process is
 * stopping.
 */
async function health(app: FastifyInstance) {
  const expected = await migrationNames();
  const config = { answersWhileStopping: true };
  app.decorate('notReadyReasons', async () => {
    const reasons: NotReadyReason[] = [];
    if (app.stopping) reasons.push('draining');
    const database = await databaseState(app.sql, app.clock);
    if (database === null) reasons.push('database');
    else if (expected.some((name) => !database.applied.has(name))) reasons.push('migrations');
    if (!app.eventFeed.live) reasons.push('live updates');
    if (database !== null && isClockSkewed(database.clockSkewMs)) reasons.push('clock');
    return reasons;
  });
  const skew = await clockSkewMs(app.sql, app.clock).catch(() => null);
  if (skew !== null && isClockSkewed(skew)) app.log.warn({ clockSkewMs: skew }, clockSkewWarning(skew));

  app.get(
    HEALTH_PATH,
    { config, schema: { summary: 'The process answers', response: { 200: healthAnswer } } },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    READY_PATH,
    {
      config,
      schema: { summary: 'The process can serve', response: { 200: readyAnswer, 503: readyAnswer } },
    },
    async (_request, reply) => {
      const reasons = await app.notReadyReasons();
      return reply
        .status(reasons.length === 0 ? 200 : 503)
        .send({ status: reasons.length === 0 ? 'ready' : 'unavailable', reasons });
    },
  );
}

/**
 * The migrations the database has recorded and how far this process's clock is from its, in one statement,
 * or null when it does not answer in time.
 */
async function databaseState(
  sql: Sql,
  clock: Clock,
): Promise<{ applied: Set<string>; clockSkewMs: number } | null> {
  const sent = clock();
  const query = sql<{ now: Date; names: string[] }[]>`
    SELECT now() AS now, ARRAY(SELECT name FROM schema_migrations) AS names`.then(
    ([row]) => ({ applied: new Set(row!.names), clockSkewMs: skewOf(sent, clock(), row!.now.getTime()) }),
    () => null,
  );
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), DATABASE_CHECK_MS);
  });
  try {
    return await Promise.race([query, late]);
  } finally {
    clearTimeout(timer);
  }
}

export default fp(health, {
  name: 'health',
  fastify: '5.x',
  dependencies: ['graceful-stop', 'event-feed'],
  decorators: { fastify: ['sql', 'hub', 'clock'] },
});
