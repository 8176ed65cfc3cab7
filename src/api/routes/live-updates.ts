import type { FastifyInstance } from 'fastify';
import { userIdOf } from '../plugins/auth';

/**
 * `/api/ws`: the session cookie authenticates the upgrade, and the socket lives as long as that session; the
 * hub checks ownership per subscription.
 */
export async function liveUpdateRoutes(app: FastifyInstance) {
  // A websocket, not a call with an answer: the API document leaves it out.
  app.route({
    method: 'GET',
    url: '/api/ws',
    schema: { hide: true },
    // A plain request (no upgrade) is told what this is, as every refusal is: JSON with a message.
    handler: (_request, reply) =>
      reply
        .status(426)
        .header('upgrade', 'websocket')
        .send({ message: 'This is the live updates websocket: open it with an Upgrade: websocket request.' }),
    wsHandler: (socket, request) => {
      app.hub.connect(socket, { userId: userIdOf(request), sessionId: request.sessionId! });
    },
  });
}
