import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { CommandHandler } from '../commands/command-handler';

declare module 'fastify' {
  interface FastifyInstance {
    /** The one command path of every event-sourced aggregate. */
    commands: CommandHandler;
  }
}

export default fp(
  async (app: FastifyInstance) => {
    app.decorate('commands', new CommandHandler(app.store));
  },
  { name: 'commands', fastify: '5.x', decorators: { fastify: ['store'] } },
);
