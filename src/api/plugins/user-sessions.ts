import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { UserSessionsRepository } from '../user-sessions/user-sessions-repository';

declare module 'fastify' {
  interface FastifyInstance {
    /** Saved sessions: each visible to its owner only. */
    userSessions: UserSessionsRepository;
  }
}

export default fp(
  async (app: FastifyInstance) => {
    app.decorate('userSessions', new UserSessionsRepository(app.sql));
  },
  { name: 'user-sessions', fastify: '5.x', decorators: { fastify: ['sql'] } },
);
