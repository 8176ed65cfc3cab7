import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { LiveUpdateHub } from './live-update-hub';

declare module 'fastify' {
  interface FastifyInstance {
    hub: LiveUpdateHub;
  }
}

/**
 * The websocket hub, following the event feed, and its watch on sign-in sessions (a socket lives as long as
 * the session it was opened with): started with the app, closed with it.
 */
export default fp(
  async (app: FastifyInstance) => {
    const hub = new LiveUpdateHub(app.store, app.sql, app.sessionStore, app.serverInstance, app.eventFeed);
    app.decorate('hub', hub);
    await hub.start();
    app.addHook('onClose', () => hub.close());
  },
  {
    name: 'live-updates',
    dependencies: ['auth', 'server-instance', 'event-feed'],
    decorators: { fastify: ['store', 'sql', 'sessionStore'] },
  },
);
