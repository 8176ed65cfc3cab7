import type { FastifyInstance } from 'fastify';
import { sendProblem } from '../http/errors';
import { metricsText } from './metrics';
import { METRICS_CHALLENGE, METRICS_PATH, METRICS_TOKEN_NEEDED, mayScrape } from './scrape-access';

/**
 * `GET /metrics` on the app's port: the Prometheus text only when METRICS_TOKEN serves them here, and only
 * to `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise); 404 when metrics are off or have a port of
 * their own. A scrape target, not a call of the API: the API document leaves it out, and it answers while
 * the process stops too, so the scrape shows the stop.
 */
export async function metricsRoutes(app: FastifyInstance) {
  const serving = app.config.metrics;
  app.get(
    METRICS_PATH,
    { schema: { hide: true }, config: { answersWhileStopping: true } },
    async (request, reply) => {
      if (serving.serve !== 'app-port') return sendProblem(reply, 404, 'not_found', 'Không tìm thấy');
      if (!mayScrape(request.headers.authorization, serving.token)) {
        reply.header('www-authenticate', METRICS_CHALLENGE);
        return sendProblem(reply, 401, 'invalid_token', METRICS_TOKEN_NEEDED);
      }
      const { contentType, body } = await metricsText();
      return reply.type(contentType).send(body);
    },
  );
}
