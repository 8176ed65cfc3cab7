import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { WorkspacesRepository } from '../workspaces';
import { CommandHandler } from './command-handler';
import { Followers } from './followers';
import { DEFAULT_RETRY_POLICY } from './retry-policy';

declare module 'fastify' {
  interface FastifyInstance {
    /** The one command path of every event-sourced aggregate. */
    commands: CommandHandler;
    /** Everything that follows the events, each with its delivery: the one list (`followers.list()`). */
    followers: Followers;
  }
}

export default fp(
  async (app: FastifyInstance) => {
    const commands = new CommandHandler(app.store, DEFAULT_RETRY_POLICY, new WorkspacesRepository(app.sql), {
      snapshotEvery: app.config.snapshotEvery,
    });
    app.decorate('commands', commands);
    const followers = new Followers(app.store, app.eventFeed, commands);
    app.decorate('followers', followers);
    app.addHook('onClose', () => followers.stop());
    // A state kept for commands is dropped once another process's event of its stream is seen.
    followers.follow('kept states of the command handler', 'log', (events) => {
      for (const event of events) commands.seen(event.streamId, event.streamPosition);
    });
  },
  {
    name: 'commands',
    fastify: '5.x',
    dependencies: ['event-feed'],
    decorators: { fastify: ['sql', 'store', 'config'] },
  },
);
