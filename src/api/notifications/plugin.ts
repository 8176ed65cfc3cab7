import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createOwnKeyCipher } from '../own-keys/own-key-cipher';
import { WebhooksRepository } from '../workspaces';
import { JobQueue } from './job-queue';
import { Mailer } from './mailer';
import { Notifications } from './notifications';
import { type QueueLogLine, QueueOutage } from './queue-outage';

declare module 'fastify' {
  interface FastifyInstance {
    /** The durable job queue in PostgreSQL (pg-boss): jobs, workers on every instance, timers. */
    queue: JobQueue;
    /** Mails and webhooks, written as jobs in the commands' transactions. */
    notifications: Notifications;
    /** Webhooks of workspaces and their deliveries. */
    webhooks: WebhooksRepository;
  }
}

/**
 * Starts the job queue with the server (pg-boss makes or upgrades its schema), works its queues on this
 * instance, and stops it on close: the jobs under way finish first, up to SHUTDOWN_GRACE_MS.
 */
export default fp(
  async (app: FastifyInstance, options: { databaseUrl?: string | undefined }) => {
    const databaseUrl = options.databaseUrl ?? app.config.databaseUrl;
    if (!databaseUrl) throw new Error('The job queue needs the database URL');
    const queue = new JobQueue({
      databaseUrl,
      poolSize: app.config.jobQueuePoolSize,
      pollingIntervalSeconds: app.config.queuePollSeconds,
      stopTimeoutMs: Math.max(1_000, app.config.shutdownGraceMs),
    });
    // While the database is away the queue reports error after error: one warning, then one line when it is back.
    const outage = new QueueOutage();
    const log = (line: QueueLogLine) => {
      if (line?.level === 'error') app.log.error(line.error, line.message);
      else if (line) app.log[line.level](line.message);
    };
    queue.onError((error) => log(outage.failed(error)));
    queue.onAnswer(() => log(outage.answered()));
    const webhooks = new WebhooksRepository(app.sql);
    const mailer = app.config.smtpUrl ? new Mailer(app.config.smtpUrl, app.config.mailFrom) : null;
    const notifications = new Notifications(
      queue,
      webhooks,
      createOwnKeyCipher(app.config.appSecret),
      mailer,
      app.config.webhookHosts,
      app.config.webhookRetryDelaySeconds,
      app.config.publicUrl,
      app.log,
    );
    app.decorate('queue', queue);
    app.decorate('notifications', notifications);
    app.decorate('webhooks', webhooks);
    await queue.start();
    app.addHook('onClose', async () => {
      await queue.stop();
      mailer?.close();
    });
    await notifications.start();
    app.followers.follow(
      'webhooks of workspaces: deliveries written with the events',
      'transaction',
      notifications.reaction,
    );
  },
  {
    name: 'notifications',
    fastify: '5.x',
    dependencies: ['commands'],
    decorators: { fastify: ['sql', 'config'] },
  },
);
