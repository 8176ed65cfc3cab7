import type { FastifyInstance } from 'fastify';
import { userIdOf } from '../plugins/auth';

/** `/api/ws`: the session cookie authenticates the upgrade; the hub checks ownership per subscription. */
export async function liveUpdateRoutes(app: FastifyInstance) {
  // A websocket, not a call with an answer: the API document leaves it out.
  app.get('/api/ws', { websocket: true, schema: { hide: true } }, (socket, request) => {
    app.hub.connect(socket, userIdOf(request));
  });
}
