import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { KeyCheck, resolveProvider } from '../../ai';
import type { NewApiKey } from '../../domain/api-key';
import { UserModels } from './user-models';

declare module 'fastify' {
  interface FastifyInstance {
    /** The one way a user's model is reached: `forRun` for a run, `forUser` for any other call. */
    models: UserModels;
  }
}

/**
 * The user's model for every caller; `resolve` overrides which model answers, `checkKey` how a new own key is
 * checked (unset: the usual choice, and a call to the Gemini API).
 */
export default fp<{
  resolve?: typeof resolveProvider | undefined;
  checkKey?: ((key: NewApiKey) => Promise<KeyCheck>) | undefined;
}>(
  async (app: FastifyInstance, options) => {
    const { resolve, checkKey } = options;
    app.decorate('models', new UserModels({ sql: app.sql, config: app.config, resolve, checkKey }));
  },
  { name: 'models', decorators: { fastify: ['config', 'sql'] } },
);
