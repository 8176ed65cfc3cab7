import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { resolveProvider } from '../../ai';
import { UserModels } from '../model-calls/user-models';

declare module 'fastify' {
  interface FastifyInstance {
    /** The one way a user's model is reached: `forRun` for a run, `forUser` for any other call. */
    models: UserModels;
  }
}

/** The user's model for every caller; `resolve` overrides which model answers (unset: the usual choice). */
export default fp<{ resolve?: typeof resolveProvider | undefined }>(
  async (app: FastifyInstance, options) => {
    app.decorate('models', new UserModels({ sql: app.sql, config: app.config, resolve: options.resolve }));
  },
  { name: 'models', decorators: { fastify: ['config', 'sql'] } },
);
