import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiKeysRepository } from '../api-keys/api-keys-repository';
import { UserSessionsRepository } from '../user-sessions/user-sessions-repository';

declare module 'fastify' {
  interface FastifyInstance {
    /** Saved sessions: each visible to its owner only. */
    userSessions: UserSessionsRepository;
    /** Own API keys and the free allowance's usage: each visible to its owner only. */
    apiKeys: ApiKeysRepository;
  }
}

/** The repositories of what belongs to a user and is not event-sourced: saved sessions, own keys. */
export default fp(
  async (app: FastifyInstance) => {
    app.decorate('userSessions', new UserSessionsRepository(app.sql));
    app.decorate('apiKeys', new ApiKeysRepository(app.sql, app.config));
  },
  { name: 'user-records', fastify: '5.x', decorators: { fastify: ['sql', 'config'] } },
);
