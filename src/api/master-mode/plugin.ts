import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { CrashSweep } from '../runtime/crash-sweep';
import { MasterModeService } from './master-mode-service';
import { MasterSessionsRepository } from './master-sessions-repository';

declare module 'fastify' {
  interface FastifyInstance {
    masterMode: MasterModeService;
    /** Master mode sessions and rows as records, and the read models of what ran on them. */
    masterSessions: MasterSessionsRepository;
    crashSweep: CrashSweep;
  }
}

/** Master mode on the command handler, and the sweep that finishes what a crash left of any run. */
export default fp(
  async (app: FastifyInstance) => {
    const sessions = new MasterSessionsRepository(app.sql);
    const masterMode = new MasterModeService({
      sessions,
      log: app.log,
      config: app.config,
      models: app.models,
      commands: app.commands,
      runs: app.runs,
      instance: app.serverInstance,
      tokens: app.hub,
    });
    app.decorate('masterMode', masterMode);
    app.decorate('masterSessions', sessions);
    const sweep = new CrashSweep({
      sql: app.sql,
      config: app.config,
      executions: app.executions,
      masterMode,
      runs: app.runs,
      instance: app.serverInstance,
      retry: app.commands.retry,
    });
    app.decorate('crashSweep', sweep);
    app.addHook('onClose', async () => {
      sweep.stop();
      await masterMode.close();
    });
  },
  { name: 'master-mode', dependencies: ['models', 'live-updates', 'executions'] },
);
