import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { LogTailer } from '../../eventstore';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The process's one reader of the whole event log, from its start on: every commit of every server
     * process, in log order, once. The websocket hub, the kept states, the execution view cache and the run
     * registry (a Stop sent to another process) each subscribe with `onEvents`.
     */
    eventFeed: LogTailer;
  }
}

export default fp(
  async (app: FastifyInstance) => {
    const feed = app.store.tail({ from: 'now' });
    app.decorate('eventFeed', feed);
    await feed.start();
    app.addHook('onClose', () => feed.stop());
  },
  { name: 'event-feed', decorators: { fastify: ['store'] } },
);
