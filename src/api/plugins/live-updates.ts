import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { LiveUpdateHub } from '../ws/live-update-hub';

declare module 'fastify' {
  interface FastifyInstance {
    hub: LiveUpdateHub;
  }
}

/**
 * The websocket hub, its log tailer and its watch on sign-in sessions (a socket lives as long as the
 * session it was opened with): started with the app, closed with it.
 */
export default fp(
  async (app: FastifyInstance) => {
    const hub = new LiveUpdateHub(app.store, app.sql, app.sessionStore, app.serverInstance);
    app.decorate('hub', hub);
    // A state kept for commands is dropped once another process's event of its stream is seen.
    hub.onEvent((event) => app.commands.seen(event.streamId, event.streamPosition));
    await hub.start();
    app.addHook('onClose', () => hub.close());
  },
  {
    name: 'live-updates',
    dependencies: ['auth', 'server-instance', 'commands'],
    decorators: { fastify: ['store', 'sql', 'sessionStore'] },
  },
);
