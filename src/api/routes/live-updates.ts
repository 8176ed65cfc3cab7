import type { FastifyInstance } from 'fastify';
import { userIdOf } from '../plugins/auth';

/**
 * `/api/ws`: the session cookie authenticates the upgrade, and the socket lives as long as that session; the
 * hub checks ownership per subscription.
 */
export async function liveUpdateRoutes(app: FastifyInstance) {
  // A websocket, not a call with an answer: the API document leaves it out.
  app.get('/api/ws', { websocket: true, schema: { hide: true } }, (socket, request) => {
    app.hub.connect(socket, { userId: userIdOf(request), sessionId: request.session.sessionId });
  });
}
