import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiKeysRepository } from '../api-keys/api-keys-repository';
import { ConversationContexts } from '../conversation-context/conversation-contexts';
import { RecommendationsRepository } from '../recommendations/recommendations-repository';
import { RequestLogsRepository } from '../request-logs/request-logs-repository';
import { SuggestionsRepository } from '../suggestions/suggestions-repository';
import { UserSessionsRepository } from '../user-sessions/user-sessions-repository';
import { UsersRepository } from '../users/users-repository';

declare module 'fastify' {
  interface FastifyInstance {
    /** Saved sessions: each visible to its owner only. */
    userSessions: UserSessionsRepository;
    /** Own API keys and the free allowance's usage: each visible to its owner only. */
    apiKeys: ApiKeysRepository;
    /** The conversation context of each flow (its notes), read with the flow's requests and rejected ideas. */
    conversationContexts: ConversationContexts;
    /** Workflow recommendations, patterns, templates and feedback: each user's own. */
    recommendations: RecommendationsRepository;
    /** Users as the rest of the app reads and writes them (accounts, who caused an event, by name). */
    users: UsersRepository;
    /** The model requests of each flow, as its logs dialog lists them. */
    requestLogs: RequestLogsRepository;
    /** The AI suggestions made for each flow. */
    suggestions: SuggestionsRepository;
  }
}

/**
 * The repositories of what belongs to a user and is not event-sourced: saved sessions, own keys, notes,
 * recommendations, a flow's request log and suggestions, and the users themselves.
 */
export default fp(
  async (app: FastifyInstance) => {
    app.decorate('userSessions', new UserSessionsRepository(app.sql));
    app.decorate('apiKeys', new ApiKeysRepository(app.sql, app.config));
    app.decorate('conversationContexts', new ConversationContexts(app.sql, app.flows));
    app.decorate('users', new UsersRepository(app.sql));
    app.decorate('recommendations', new RecommendationsRepository(app.sql));
    app.decorate('requestLogs', new RequestLogsRepository(app.sql));
    app.decorate('suggestions', new SuggestionsRepository(app.sql));
  },
  {
    name: 'user-records',
    fastify: '5.x',
    dependencies: ['flows'],
    decorators: { fastify: ['sql', 'config'] },
  },
);
