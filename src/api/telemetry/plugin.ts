import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { addScrapeSource, collectProcessMetrics, metricsText } from './metrics';
import { METRICS_CHALLENGE, METRICS_PATH, METRICS_TOKEN_NEEDED, mayScrape } from './scrape-access';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where the metrics' own port listens (METRICS_PORT), once listening; null when they have none. */
    metricsAddress: AddressInfo | null;
  }
}

/** A reader of the log is counted at most this many events behind it: past that, the number says enough. */
const LAG_COUNTED_UP_TO = 100_000;

/**
 * The Prometheus metrics of the process: what this app tells at each scrape (pending reviews and waiting
 * jobs from the database, how far its reader of the log is behind, its websockets, its readiness), Node's
 * process metrics when METRICS is on, and with METRICS_PORT the metrics' own small HTTP server on
 * METRICS_HOST, closed with the app.
 */
async function metrics(app: FastifyInstance) {
  const remove = addScrapeSource({
    reviewsPending: () => app.reviews.pendingCount(),
    jobsWaiting: () => app.queue.jobsWaiting(),
    eventsBehind: () => app.store.eventsBehind(app.eventFeed.checkpoint, LAG_COUNTED_UP_TO),
    webSocketConnections: () => app.hub.connectionCount,
    notReadyReasons: () => app.notReadyReasons(),
  });
  app.addHook('onClose', async () => {
    remove();
  });
  app.decorate('metricsAddress', null);
  const serving = app.config.metrics;
  if (serving.serve === 'off') return;
  collectProcessMetrics();
  if (serving.serve !== 'own-port') return;

  const server = metricsServer(serving.token, (error) => app.log.error(error, 'a metrics scrape failed'));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(serving.port, serving.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  app.metricsAddress = server.address() as AddressInfo;
  app.addHook('onClose', async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
}

/** The metrics' own server: `GET /metrics` (with the token when one is set), 404 for anything else. */
function metricsServer(token: string | undefined, failed: (error: unknown) => void): Server {
  return createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== METRICS_PATH || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    if (!mayScrape(request.headers.authorization, token)) {
      response
        .writeHead(401, {
          'content-type': 'text/plain; charset=utf-8',
          'www-authenticate': METRICS_CHALLENGE,
        })
        .end(`${METRICS_TOKEN_NEEDED}\n`);
      return;
    }
    metricsText().then(
      ({ contentType, body }) => {
        response.writeHead(200, { 'content-type': contentType });
        response.end(request.method === 'HEAD' ? undefined : body);
      },
      (error) => {
        failed(error);
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Metrics failed\n');
      },
    );
  });
}

export default fp(metrics, {
  name: 'metrics',
  fastify: '5.x',
  dependencies: ['health', 'event-feed', 'notifications'],
  decorators: { fastify: ['store', 'reviews', 'queue', 'hub', 'notReadyReasons'] },
});
