import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ServerInstance } from './server-instance';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process as the database knows it: runs record it, and its lock tells the others it lives. */
    serverInstance: ServerInstance;
  }
}

/**
 * This process's instance number and lock, taken before any run can start (so every run names a live
 * instance), and its watch on the other processes sharing the database.
 */
export default fp(
  async (app: FastifyInstance) => {
    const instance = await ServerInstance.start(app.sql);
    app.decorate('serverInstance', instance);
    try {
      await instance.watchPeers();
    } catch (error) {
      await instance.stop();
      throw error;
    }
    // Freed last (onClose hooks run in reverse order): runs ended while closing are this process's own.
    app.addHook('onClose', () => instance.stop());
  },
  { name: 'server-instance', decorators: { fastify: ['sql'] } },
);
