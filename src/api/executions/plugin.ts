import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { EXECUTION_STREAM_PREFIX } from '../../domain/execution/stream';
import { ExecutionCommands } from './execution-commands';
import { ExecutionViews } from './execution-views';
import { ReviewNotices } from './review-notices';
import { ReviewsRepository } from './reviews-repository';
import { RunRegistry } from './run-registry';
import { StepRunner } from './step-runner';

declare module 'fastify' {
  interface FastifyInstance {
    /** Model calls this process is making, for Stop and the crash sweep. */
    runs: RunRegistry;
    executions: ExecutionCommands;
    executionViews: ExecutionViews;
    /** The reviews' read model: the inbox, and the execution of a review. */
    reviews: ReviewsRepository;
    stepRunner: StepRunner;
  }
}

/** Command handling, and the execution services built on it. */
export default fp(
  async (app: FastifyInstance) => {
    const { commands } = app;
    const runs = new RunRegistry();
    const instance = app.serverInstance;
    const reviews = new ReviewsRepository(app.sql);
    const executions = new ExecutionCommands(app.flows, commands, runs, app.config.limits, (executionId) =>
      reviews.membersOfExecution(executionId),
    );
    const views = new ExecutionViews(app.sql, instance);
    // What follows the executions' events, beyond their read models and the websocket pushes.
    app.followers.follow('execution views kept between changes: dropped', 'first', (events) => {
      for (const event of events)
        if (event.streamId.startsWith(EXECUTION_STREAM_PREFIX))
          views.changed(event.streamId.slice(EXECUTION_STREAM_PREFIX.length));
    });
    app.followers.follow(
      'model calls of this process: a Stop sent to any process ends them',
      'log',
      (events) => {
        for (const event of events)
          if (event.type === 'ExecutionStopped' && event.streamId.startsWith(EXECUTION_STREAM_PREFIX))
            runs.stopped(event.streamId.slice(EXECUTION_STREAM_PREFIX.length), event.streamPosition);
      },
    );
    app.decorate('runs', runs);
    app.decorate('executions', executions);
    app.decorate('executionViews', views);
    app.decorate('reviews', reviews);
    // Reviews' due times, mails and hand-backs: jobs written with the events that call for them.
    const notices = new ReviewNotices(
      app.queue,
      executions,
      reviews,
      app.users,
      app.notifications,
      app.config.publicUrl,
      app.log,
    );
    await notices.start();
    app.followers.follow(
      "reviews' due times, mails and hand-backs: jobs written with the events",
      'transaction',
      notices.reaction,
    );
    app.decorate(
      'stepRunner',
      new StepRunner({
        sql: app.sql,
        config: app.config,
        models: app.models,
        executions,
        flows: app.flows,
        runs,
        instance,
        tokens: app.hub,
      }),
    );
    // Whatever is still running when the server closes is cut off: each run is recorded as interrupted.
    app.addHook('onClose', async () => runs.interruptAll());
  },
  {
    name: 'executions',
    dependencies: [
      'server-instance',
      'models',
      'event-feed',
      'live-updates',
      'commands',
      'flows',
      'notifications',
    ],
    decorators: { fastify: ['config', 'sql', 'store', 'users'] },
  },
);
