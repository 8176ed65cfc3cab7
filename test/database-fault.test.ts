import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../src/api/database/connection';
import type { ShutdownMode } from '../src/api/database/postgres-processes';
import { executionStreamId } from '../src/domain/execution/stream';
import { flowStreamId } from '../src/domain/flow/events';
import { EventStore } from '../src/eventstore';
import { READ_MODEL_TABLES, rebuildProjections } from '../src/projections/rebuild';
import { missingNginx, startCluster } from './support/cluster';
import {
  follow,
  isSuccess,
  isUnavailableProblem,
  keepClientsBusy,
  prepareWork,
  type Work,
} from './support/outage-load';
import { missingPostgres, type OwnPostgres, ownPostgres } from './support/own-postgres';
import { startServerProcess } from './support/server-process';
import { TEST_APP_SECRET } from './support/test-app';

/** How long each outage lasts: long enough for every client to meet it on every instance. */
const OUTAGE_MS = 3_000;
const CLIENTS = 10;
const DEADLINE = { timeout: 60_000, interval: 100 };
/** The server processes are given room for ten clients' steps; the offline model answers them. */
const ENV = { FREE_STEP_ALLOWANCE: '100000', MODEL_CALLS_PER_MINUTE: '100000', TRUST_PROXY: 'loopback' };

/** The servers under test: their processes, where clients send requests, and how to stop them. */
interface Servers {
  base: string;
  processes: () => ChildProcess[];
  stop(): Promise<void>;
}

const alive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

/** Every read model's rows, in a stable order: what a rebuild must reproduce. */
async function readModels(sql: postgres.Sql) {
  const tables: Record<string, unknown[]> = {};
  for (const table of [...READ_MODEL_TABLES, 'flows', 'steps']) {
    tables[table] = await sql.unsafe(`SELECT * FROM ${table} ORDER BY ${table}::text`);
  }
  return tables;
}

const skipReason = missingPostgres();

/**
 * PostgreSQL shut down (fast: every session ended; immediate: as a crash, recovered from the WAL at the next
 * start) and started again while clients write, read and follow executions live. Nothing may crash the server
 * processes (a connection closed under a buffered write once ended the process, in the driver), no client may
 * get anything but its answer or a retryable 503, and what was acknowledged must be there afterwards, whole.
 */
describe.skipIf(skipReason !== null)(
  `PostgreSQL stopped and started under load${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    let database: OwnPostgres;

    beforeAll(async () => {
      database = await ownPostgres();
    }, 60_000);
    afterAll(async () => {
      await database?.close();
    }, 60_000);

    /** A new database on the test's PostgreSQL; the servers migrate it as they start. */
    const newDatabase = async () => {
      const name = `fault_${randomBytes(4).toString('hex')}`;
      const admin = postgres(database.url, { max: 1, onnotice: () => {} });
      try {
        await admin.unsafe(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end({ timeout: 5 });
      }
      const url = new URL(database.url);
      url.pathname = `/${name}`;
      return url.toString();
    };

    const oneInstance = async (url: string): Promise<Servers> => {
      const server = await startServerProcess(url, ENV);
      return { base: server.url, processes: () => [server.child], stop: server.stop };
    };
    const threeInstances = async (url: string): Promise<Servers> => {
      const cluster = await startCluster({ databaseUrl: url, env: ENV });
      return {
        base: cluster.url,
        processes: () => cluster.ports.map((_, index) => cluster.instance(index).child),
        stop: cluster.stop,
      };
    };

    const topologies = [
      { name: 'one instance', start: oneInstance, skip: null },
      { name: 'three instances behind nginx', start: threeInstances, skip: missingNginx() },
    ];

    for (const topology of topologies) {
      it.skipIf(topology.skip !== null)(
        `${topology.name}: no process exits, every answer is a 2xx or a retryable 503, nothing acknowledged is lost${topology.skip ? ` (skipped: ${topology.skip})` : ''}`,
        async () => {
          const url = await newDatabase();
          const servers = await topology.start(url);
          const sql = connect(url, { max: 2, appSecret: TEST_APP_SECRET });
          const followers: ReturnType<typeof follow>[] = [];
          try {
            const clients: Work[] = [];
            for (let i = 0; i < CLIENTS; i++) clients.push(await prepareWork(servers.base, `Client${i}`));
            for (const client of clients)
              followers.push(follow(() => servers.base, client.executionId, client.cookie));
            for (const follower of followers) await expect.poll(follower.upToDate, DEADLINE).toBe(true);
            const load = keepClientsBusy(() => servers.base, clients);
            // A server process that exited fails the wait it ends, naming how it exited: no answer comes then.
            const noneExited = () => {
              const exited = servers.processes().filter((child) => !alive(child));
              if (exited.length > 0)
                throw new Error(
                  `a server process exited (${exited.map((child) => child.signalCode ?? child.exitCode).join(', ')})`,
                );
            };
            const outages: { mode: ShutdownMode; from: number; to: number; servedAgainMs: number }[] = [];
            try {
              for (const mode of ['fast', 'immediate'] as const) {
                const before = Date.now();
                // Under way: every client has had a write answered since the last outage.
                await expect
                  .poll(() => {
                    noneExited();
                    return new Set(
                      load.answers
                        .filter((answer) => answer.key && answer.sentAt >= before && isSuccess(answer))
                        .map((answer) => answer.client),
                    ).size;
                  }, DEADLINE)
                  .toBeGreaterThanOrEqual(CLIENTS);
                const from = Date.now();
                await database.stop(mode);
                // The outage lasts until the clients have met it for OUTAGE_MS.
                await expect
                  .poll(() => {
                    noneExited();
                    return load.answers.some(
                      (answer) => answer.sentAt >= from + OUTAGE_MS && answer.status === 503,
                    );
                  }, DEADLINE)
                  .toBe(true);
                await database.start();
                const to = Date.now();
                await expect
                  .poll(() => {
                    noneExited();
                    return load.answers.some(
                      (answer) => answer.key !== null && answer.sentAt >= to && isSuccess(answer),
                    );
                  }, DEADLINE)
                  .toBe(true);
                const first = load.answers.find(
                  (answer) => answer.key !== null && answer.sentAt >= to && isSuccess(answer),
                )!;
                outages.push({ mode, from, to, servedAgainMs: first.at - to });
              }
            } finally {
              await load.stop();
            }

            // No process exited.
            expect(servers.processes().map(alive)).toEqual(servers.processes().map(() => true));

            const answers = load.answers;
            const neither = answers.filter((answer) => !isSuccess(answer) && !isUnavailableProblem(answer));
            expect(neither).toEqual([]);
            const unavailable = answers.filter((answer) => answer.status === 503).length;
            expect(unavailable).toBeGreaterThan(0);

            // Every acknowledged write is in the event log: a step edit by the prompt it gave the step, in its
            // flow's stream; a step run by its run's success, in its execution's stream.
            const acknowledged = answers.filter((answer) => answer.key !== null && isSuccess(answer));
            const missing = [];
            for (const answer of acknowledged) {
              const client = clients[answer.client!]!;
              const body = answer.body as {
                systemPrompt?: string;
                results?: { runId: string }[];
              } | null;
              const [found] = body?.results
                ? await sql`
                  SELECT 1 FROM events
                  WHERE stream_id = ${executionStreamId(client.executionId)} AND event_type = 'StepRunSucceeded'
                    AND data->>'runId' = ${body.results[0]?.runId ?? ''}`
                : await sql`
                  SELECT 1 FROM events
                  WHERE stream_id = ${flowStreamId(client.flowId)}
                    AND position(${JSON.stringify(body?.systemPrompt ?? null)} IN data::text) > 0`;
              if (!found) missing.push(answer);
            }
            expect(missing).toEqual([]);

            // Every request has its answer, and no run is left running: a start stored though its answer was lost
            // with the database goes on to its outcome (else its step answers 409 until the crash sweep).
            const stranded = await sql`
              SELECT id, runs FROM executions WHERE runs @> '[{"status":"running"}]'::jsonb`;
            expect(stranded).toEqual([]);

            // No gap: every stream's positions are 1..n, and its version is n.
            const gaps = await sql`
              SELECT s.stream_id, s.version, count(e.*) AS events, min(e.stream_position) AS first,
                     max(e.stream_position) AS last
              FROM streams s LEFT JOIN events e USING (stream_id)
              GROUP BY s.stream_id, s.version
              HAVING count(e.*) <> s.version OR min(e.stream_position) <> 1 OR max(e.stream_position) <> s.version`;
            expect(gaps).toEqual([]);

            // Every socket caught up: each execution's events, in order, once, those committed while it was
            // away or reconnecting included.
            for (const [index, client] of clients.entries()) {
              const stored = await sql<{ position: number; type: string }[]>`
                SELECT stream_position AS position, event_type AS type FROM events
                WHERE stream_id = ${executionStreamId(client.executionId)} ORDER BY stream_position`;
              const follower = followers[index]!;
              await expect.poll(() => follower.events.length, DEADLINE).toBeGreaterThanOrEqual(stored.length);
              expect(follower.events.map(({ position, type }) => ({ position, type }))).toEqual(stored);
            }

            console.log(
              `${topology.name}: ${answers.length} answers, ${acknowledged.length} writes acknowledged, ` +
                `${unavailable} problem 503s; ${outages
                  .map(
                    (outage) =>
                      `${outage.mode}: away ${((outage.to - outage.from) / 1000).toFixed(1)} s, a write answered ${outage.servedAgainMs} ms after the start`,
                  )
                  .join(
                    '; ',
                  )}; sockets connected ${followers.map((follower) => follower.connections()).join(', ')} times`,
            );

            for (const follower of followers) follower.unwatch();
            followers.length = 0;
            await servers.stop();

            // Every read model is what a rebuild from the event log makes of it.
            const kept = await readModels(sql);
            expect(kept.executions).toHaveLength(CLIENTS);
            await rebuildProjections(sql, new EventStore(sql));
            expect(await readModels(sql)).toEqual(kept);
          } finally {
            for (const follower of followers) follower.unwatch();
            await servers.stop();
            await sql.end({ timeout: 5 });
          }
        },
        150_000,
      );
    }
  },
);
