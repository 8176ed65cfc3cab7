import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { EXECUTION_STREAM_PREFIX } from '../../domain/execution/stream';
import { EXPERIMENT_STREAM_PREFIX } from '../../domain/experiment/events';
import { ExperimentCommands } from './experiment-commands';
import { ExperimentRunner } from './experiment-runner';
import { ExperimentsRepository } from './experiments-repository';

declare module 'fastify' {
  interface FastifyInstance {
    /** Experiments started, stopped, scored, promoted, read and compared. */
    experimentCommands: ExperimentCommands;
    /** What drives experiments' runs on this instance. */
    experimentRunner: ExperimentRunner;
  }
}

/** The execution events that may end a run's wait for people. */
const DECISIONS = new Set([
  'ReviewApproved',
  'ReviewRejected',
  'ReviewDue',
  'ResultApproved',
  'ExecutionStopped',
]);

/** How often each instance looks at every unfinished experiment (runs of dead instances, decisions missed). */
const SWEEP_EVERY_MS = 30_000;

export default fp(
  async (app: FastifyInstance) => {
    const experiments = new ExperimentsRepository(app.sql);
    let runner: ExperimentRunner | undefined;
    const commands = new ExperimentCommands({
      commands: app.commands,
      store: app.store,
      flows: app.flows,
      flowCommands: app.flowCommands,
      datasets: app.datasetCommands,
      executions: app.executions,
      experiments,
      runner: () => runner!,
    });
    runner = new ExperimentRunner({
      sql: app.sql,
      commands: app.commands,
      executions: app.executions,
      stepRunner: app.stepRunner,
      models: app.models,
      experiments,
      queue: app.queue,
      runs: app.runs,
      instance: app.serverInstance,
      log: app.log,
      factsOf: (experimentId) => commands.factsOf(experimentId),
    });
    app.decorate('experimentCommands', commands);
    app.decorate('experimentRunner', runner);
    app.followers.follow(
      "experiments: each instance looks again at an experiment whose runs changed, or whose waiting run's people decided",
      'first',
      (events) => {
        for (const event of events) {
          if (event.streamId.startsWith(EXPERIMENT_STREAM_PREFIX))
            runner!.changed(event.streamId.slice(EXPERIMENT_STREAM_PREFIX.length), event);
          else if (event.streamId.startsWith(EXECUTION_STREAM_PREFIX) && DECISIONS.has(event.type))
            runner!.decided(event.streamId.slice(EXECUTION_STREAM_PREFIX.length));
        }
      },
    );
    await runner.start(SWEEP_EVERY_MS);
    app.addHook('onClose', async () => {
      await runner!.close();
    });
  },
  {
    name: 'experiments',
    fastify: '5.x',
    dependencies: ['commands', 'flows', 'datasets', 'executions', 'notifications'],
    decorators: { fastify: ['sql', 'store'] },
  },
);
