import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingNginx, startCluster, type TestCluster } from './support/cluster';
import {
  isSuccess,
  isUnavailableProblem,
  keepClientsBusy,
  prepareWork,
  send,
  type Work,
} from './support/outage-load';
import { missingPostgres, type OwnPostgres, ownPostgres } from './support/own-postgres';

/** How long PostgreSQL stays away: long enough for every client to meet it many times on every instance. */
const OUTAGE_MS = 10_000;
/** How soon after PostgreSQL is back every instance must serve again. */
const SERVES_AGAIN_WITHIN_MS = 5_000;
const DEADLINE = { timeout: 60_000, interval: 100 };

const skipReason = missingNginx() ?? missingPostgres();

/**
 * PostgreSQL going away behind deploy/nginx.conf: every instance answers 503 at once, and nginx must neither
 * take them all out of its rotation (answering its own 502 page long after the database is back) nor answer
 * HTML. Every client gets either its answer or a problem saying to send the request again.
 */
describe.skipIf(skipReason !== null)(
  `the database away for ten seconds behind nginx and three instances${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    let postgres: OwnPostgres;
    let cluster: TestCluster;

    beforeAll(async () => {
      postgres = await ownPostgres();
      cluster = await startCluster({
        databaseUrl: postgres.url,
        env: { FREE_STEP_ALLOWANCE: '100000', MODEL_CALLS_PER_MINUTE: '100000' },
      });
    }, 120_000);
    afterAll(async () => {
      await cluster?.stop();
      await postgres?.close();
    }, 120_000);

    it('answers every request with its answer or a retryable problem 503, never HTML, and serves again within 5 s', async () => {
      const clients: Work[] = [];
      for (const name of ['Hoa', 'Minh', 'Tuan', 'Lan']) clients.push(await prepareWork(cluster.url, name));
      const load = keepClientsBusy(() => cluster.url, clients);
      let outage = { from: 0, to: 0 };
      const backWithin: number[] = [];
      try {
        await expect.poll(() => load.answers.filter(isSuccess).length, DEADLINE).toBeGreaterThan(20);
        outage.from = Date.now();
        await postgres.stop('fast');
        // The outage lasts until the clients have met it for OUTAGE_MS.
        await expect
          .poll(
            () =>
              load.answers.some(
                (answer) => answer.sentAt >= outage.from + OUTAGE_MS && answer.status === 503,
              ),
            DEADLINE,
          )
          .toBe(true);
        await postgres.start();
        outage = { ...outage, to: Date.now() };

        // Each instance, asked on its own port, serves a read again.
        await Promise.all(
          cluster.ports.map(async (_, index) => {
            await expect
              .poll(
                async () =>
                  (await send(cluster.instance(index).url, clients[0]!.cookie, 'GET', '/api/flows')).status,
                DEADLINE,
              )
              .toBe(200);
            backWithin[index] = Date.now() - outage.to;
          }),
        );
        // And the clients' writes are answered through nginx again.
        await expect
          .poll(
            () =>
              load.answers.filter(
                (answer) => answer.method !== 'GET' && answer.sentAt >= outage.to && isSuccess(answer),
              ).length,
            DEADLINE,
          )
          .toBeGreaterThanOrEqual(clients.length);
      } finally {
        await load.stop();
      }

      const during = load.answers.filter((answer) => answer.at >= outage.from && answer.sentAt <= outage.to);
      const problems = during.filter(isUnavailableProblem);
      const firstSuccessAfter = load.answers.find(
        (answer) => answer.sentAt >= outage.to && isSuccess(answer),
      );
      console.log(
        `database away ${((outage.to - outage.from) / 1000).toFixed(1)} s: ${during.length} answers during it, ` +
          `${problems.length} of them problem 503s; each instance served again ${backWithin.join(', ')} ms after ` +
          `the database was back, nginx's first 2xx ${(firstSuccessAfter?.at ?? Number.NaN) - outage.to} ms after`,
      );

      const neither = load.answers.filter((answer) => !isSuccess(answer) && !isUnavailableProblem(answer));
      expect(neither).toEqual([]);
      expect(load.answers.filter((answer) => answer.contentType.includes('html'))).toEqual([]);
      expect(problems.length).toBeGreaterThan(0);
      for (const ms of backWithin) expect(ms).toBeLessThanOrEqual(SERVES_AGAIN_WITHIN_MS);
      // Nothing the instances answered went out as nginx's own page: every 503 through it was an instance's
      // problem, or nginx's problem when none answered.
      const proxied = await cluster.proxied();
      expect(proxied.filter((request) => request.status === 502 || request.status === 504)).toEqual([]);
    }, 180_000);
  },
);
