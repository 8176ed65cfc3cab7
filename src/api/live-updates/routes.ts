import type { FastifyInstance } from 'fastify';
import { TOKEN_SOCKET_PREFIX } from '../api-tokens/api-tokens-repository';
import { reachOfRequest, userIdOf } from '../auth/plugin';
import { sendProblem } from '../http/errors';

/**
 * `/api/ws`: the session cookie (or an API token, `Authorization: Bearer`) authenticates the upgrade, and the
 * socket lives as long as that session or token; the hub asks the access rule per subscription.
 */
export async function liveUpdateRoutes(app: FastifyInstance) {
  // A websocket, not a call with an answer: the API document leaves it out.
  app.route({
    method: 'GET',
    url: '/api/ws',
    schema: { hide: true },
    // A plain request (no upgrade) is told what this is, as every refusal is: a problem with a message.
    handler: (_request, reply) =>
      sendProblem(
        reply.header('upgrade', 'websocket'),
        426,
        'rule_violated',
        'This is the live updates websocket: open it with an Upgrade: websocket request.',
      ),
    wsHandler: (socket, request) => {
      const token = request.apiToken;
      app.hub.connect(socket, {
        userId: userIdOf(request),
        sessionId: token ? `${TOKEN_SOCKET_PREFIX}${token.id}` : request.sessionId!,
        reach: reachOfRequest(request),
      });
    },
  });
}
