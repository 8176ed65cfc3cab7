import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { LiveUpdateHub } from '../ws/live-update-hub';

declare module 'fastify' {
  interface FastifyInstance {
    hub: LiveUpdateHub;
  }
}

/** The websocket hub and its log tailer: started with the app, closed with it. */
export default fp(
  async (app: FastifyInstance) => {
    const hub = new LiveUpdateHub(app.store, app.sql);
    app.decorate('hub', hub);
    await hub.start();
    app.addHook('onClose', () => hub.close());
  },
  { name: 'live-updates', decorators: { fastify: ['store', 'sql'] } },
);
