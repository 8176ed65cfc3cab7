import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { DomainError } from '../../domain/errors';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Stops this process without losing work (SIGTERM): see the plugin. Resolves once the app is closed.
     */
    stopGracefully(graceMs: number): Promise<void>;
    /** The graceful stop has begun: new requests are answered 503. */
    readonly stopping: boolean;
  }
}

/**
 * How long a stopping process goes on answering new requests 503 before it stops listening: long enough for
 * a load balancer to have passed one on and marked the process down, so no request is left in its listen
 * queue when it closes.
 */
export const DRAIN_MS = 1_000;

export const RESTARTING = 'Server đang khởi động lại; vui lòng gửi lại request.';

/**
 * A graceful stop. From its first moment every new request is answered 503 without anything done (a load
 * balancer passes it to another process: see deploy/nginx.conf) and every websocket is closed with the
 * restart code (the browser reconnects at once, through the balancer, and resumes from its position). The
 * requests under way go on, model calls included, for up to `graceMs`; runs still going then are cut off and
 * recorded as interrupted, so the user can run them again. Then the app closes.
 */
export default fp(
  async (app: FastifyInstance) => {
    let stopping = false;
    // Before any hook that reads (the session, ...): a stopping process touches nothing. Registered after the
    // websocket plugin, whose hooks close the socket of an upgrade refused here.
    // A callback hook: every request passes it, and it costs no promise.
    app.decorate('stopping', {
      getter: () => stopping,
    });
    app.addHook('onRequest', (request, reply, done) => {
      if (!stopping || request.routeOptions.config.answersWhileStopping) return done();
      reply.header('connection', 'close').header('retry-after', '1');
      done(new DomainError('unavailable', RESTARTING));
    });
    app.decorate('stopGracefully', async (graceMs: number) => {
      if (stopping) return;
      stopping = true;
      app.hub.restarting();
      const cutOff = setTimeout(() => app.runs.interruptAll(), graceMs);
      // A kept-alive connection whose request has been answered would hold the close: each is closed as it
      // goes idle.
      const idle = setInterval(() => app.server.closeIdleConnections(), 100);
      try {
        await new Promise((resolve) => setTimeout(resolve, Math.min(DRAIN_MS, graceMs)));
        await app.close();
      } finally {
        clearTimeout(cutOff);
        clearInterval(idle);
      }
    });
  },
  { name: 'graceful-stop' },
);
