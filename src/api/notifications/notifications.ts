import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Sql, TransactionSql } from 'postgres';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../domain/webhook-event-types';
import type { Statement } from '../../eventstore';
import type { EventReaction } from '../commands/command-handler';
import type { OwnKeyCipher } from '../own-keys/own-key-cipher';
import { webhookTried } from '../telemetry/metrics';
import type { WebhookEvent, WebhooksRepository } from '../workspaces';
import { JobQueue, type Retry } from './job-queue';
import type { Mailer } from './mailer';
import type { MailJob } from './mails';
import { tryDelivery } from './webhook-delivery';
import { webhookEventOf } from './webhook-payloads';

export { WEBHOOK_EVENT_TYPES, type WebhookEventType };

/**
 * Deprecated names a webhook may still be made with, and what each stands for: `review.escalated` was both a
 * review handed back and one sent to the owners too.
 */
export const DEPRECATED_WEBHOOK_EVENT_TYPES = {
  'review.escalated': ['review.handedBack', 'review.ownersToo'],
} as const satisfies Record<string, readonly WebhookEventType[]>;

/** The type of a delivery an owner sends to try a webhook: never asked for, sent to the one webhook. */
export const WEBHOOK_TEST_TYPE = 'webhook.test';

/** How long the secret before a rotation still signs deliveries (a second signature). */
export const SECRET_ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** The queues of notifications. */
export const MAIL_QUEUE = 'mail';
export const WEBHOOK_QUEUE = 'webhook-event';

/** A mail is tried again for about a day: 1 min, 2, 4, ... */
const MAIL_RETRY: Retry = { retryLimit: 10, retryDelay: 60, retryBackoff: true };

/** A mail job's data: the mail sealed, since an invitation's link holds its one-time token. */
export interface SealedMail {
  sealed: string;
}

/** A mail as its job carries it. */
export const sealedMail = (cipher: OwnKeyCipher, mail: MailJob): SealedMail => ({
  sealed: cipher.encrypt(JSON.stringify(mail)),
});

/**
 * A webhook job's data: the event whose deliveries it tries; with `deliveryId`, that one delivery alone, tried
 * once (an owner's "retry now").
 */
interface WebhookJob {
  eventId: string;
  deliveryId?: string;
  /** The delivery had failed before "retry now": failed again if this try fails (else its event's job goes on). */
  wasFailed?: boolean;
}

/**
 * Notifications, none of which ever holds up or fails a command: the command writes the job (and a webhook's
 * deliveries) in its own transaction, and the queue's workers, on every instance, send the mail or POST the
 * webhook afterwards, retrying by the job's policy until it goes through.
 */
export class Notifications {
  constructor(
    readonly queue: JobQueue,
    private readonly webhooks: WebhooksRepository,
    private readonly cipher: OwnKeyCipher,
    private readonly mailer: Mailer | null,
    private readonly webhookHosts: readonly string[],
    private readonly webhookRetryDelaySeconds: number,
    private readonly publicUrl: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * What "now" is for webhooks' secrets (when a rotated one stops signing): the clock, unless a test moves it.
   * A delivery's `webhook-timestamp` is the machine's time it is sent at, which its receiver checks.
   */
  now: () => Date = () => new Date();

  /** Whether mails are sent at all (SMTP_URL is set). */
  get mails() {
    return this.mailer !== null;
  }

  /** How a webhook's event is retried: doubling from the first delay, 10 times (well over an hour). */
  private get webhookRetry(): Retry {
    return { retryLimit: 10, retryDelay: this.webhookRetryDelaySeconds, retryBackoff: true };
  }

  /** The queues exist and this instance works them. */
  async start() {
    await this.queue.ensure(MAIL_QUEUE, MAIL_RETRY);
    await this.queue.ensure(WEBHOOK_QUEUE, this.webhookRetry);
    await this.queue.work<SealedMail>(MAIL_QUEUE, (job) => this.sendMail(job.data));
    await this.queue.work<WebhookJob>(WEBHOOK_QUEUE, (job) => this.deliver(job));
  }

  /** In the command's transaction: a job that sends the mail. Null when mail is not configured. */
  mailStatement(tx: TransactionSql, mail: MailJob): Statement | null {
    if (!this.mailer) return null;
    const data = sealedMail(this.cipher, mail);
    return JobQueue.statementOf(tx, this.queue.insertOf({ name: MAIL_QUEUE, data }, MAIL_RETRY));
  }

  /** The command handler's reaction: each event a webhook may want gets its deliveries and one job. */
  readonly reaction: EventReaction = (tx, recorded, source) =>
    recorded.flatMap((event, index) => {
      const hookEvent = webhookEventOf(event, index, source, this.publicUrl);
      return hookEvent === null ? [] : this.webhookStatements(tx, hookEvent);
    });

  /**
   * In a transaction: the event's deliveries, and the one job that tries them; `hookId`: to that webhook alone,
   * whatever it asks for (a test delivery).
   */
  private webhookStatements(tx: TransactionSql, hookEvent: WebhookEvent, hookId?: string): Statement[] {
    const job: WebhookJob = { eventId: hookEvent.eventId };
    return [
      this.webhooks.deliveriesOf(tx, hookEvent, hookId),
      JobQueue.statementOf(
        tx,
        this.queue.insertOf(
          { name: WEBHOOK_QUEUE, data: job },
          { id: hookEvent.eventId, ...this.webhookRetry },
        ),
      ),
    ];
  }

  /**
   * A signed checkpoint of the audit log, to every webhook of any workspace that asks for
   * `checkpoint.published`: a copy outside the database, at the receiver's. Its deliveries and job are
   * written in one transaction, then tried like any event's.
   */
  async publishCheckpoint(
    sql: Sql,
    checkpoint: { origin: string; size: number; rootHash: string; at: string; keyId: string; note: string },
  ) {
    const hookEvent: WebhookEvent = {
      eventId: randomUUID(),
      type: 'checkpoint.published',
      at: checkpoint.at,
      workspaceId: null,
      // The log only grows: its size orders its checkpoints.
      data: { ...checkpoint, sequence: checkpoint.size },
    };
    await sql.begin((tx) => this.webhookStatements(tx, hookEvent));
  }

  /**
   * A `webhook.test` delivery to one webhook of the workspace, sent like any event's (its row and job, then the
   * queue's tries): its id, or null when the workspace has no such webhook.
   */
  async sendTest(workspaceId: string, hookId: string, by: string): Promise<string | null> {
    const hookEvent: WebhookEvent = {
      eventId: randomUUID(),
      type: WEBHOOK_TEST_TYPE,
      at: new Date().toISOString(),
      workspaceId,
      data: {
        webhookId: hookId,
        sequence: 0,
        message: 'A test delivery, sent by an owner from the workspace settings',
        actor: { userId: by },
      },
    };
    await this.webhooks.write((tx) => this.webhookStatements(tx, hookEvent, hookId));
    return this.webhooks.deliveryIdOf(hookId, hookEvent.eventId);
  }

  /**
   * "Retry now" of a delivery not delivered: pending (again, when it had failed), and a job that tries it once,
   * now. A failed one that fails again is failed once more; a pending one stays with its event's job and its
   * later tries. False when there is no such delivery or it was delivered.
   */
  async retryDelivery(workspaceId: string, hookId: string, deliveryId: string): Promise<boolean> {
    const retried = await this.webhooks.retry(workspaceId, hookId, deliveryId);
    if (retried === null) return false;
    const job: WebhookJob = { eventId: retried.eventId, deliveryId, wasFailed: retried.wasFailed };
    await this.queue.send({ name: WEBHOOK_QUEUE, data: job }, { retryLimit: 0 });
    return true;
  }

  /**
   * Queues a mail now, outside any command (a review's notice, worked out after its event): `id` names it, so
   * queueing the same mail again, when the work that queues it is retried, sends it once.
   */
  async queueMail(mail: MailJob, id: string) {
    if (!this.mailer) return;
    await this.queue.send({ name: MAIL_QUEUE, data: sealedMail(this.cipher, mail) }, { id, ...MAIL_RETRY });
  }

  private async sendMail(data: SealedMail) {
    if (!this.mailer) {
      this.log.warn('a mail job was left from when SMTP_URL was set: not sent');
      return;
    }
    await this.mailer.send(JSON.parse(this.cipher.decrypt(data.sealed)) as MailJob);
  }

  /**
   * Tries each delivery of the event not delivered yet; any still not delivered fails the job, which the
   * queue retries later. After the last try they are marked failed. Each is signed with its webhook's secret,
   * and with the one before it while a rotation lasts.
   */
  private async deliver(job: { data: WebhookJob; retryCount?: number; retryLimit?: number }) {
    const { eventId, deliveryId, wasFailed } = job.data;
    const pending = await this.webhooks.pendingOf(eventId, deliveryId);
    const now = this.now().getTime();
    let left = 0;
    for (const delivery of pending) {
      const body = JSON.stringify(delivery.body);
      const secrets = [this.cipher.decrypt(delivery.secretSealed)];
      if (
        delivery.previousSecretSealed !== null &&
        delivery.previousSecretUntil !== null &&
        now < new Date(delivery.previousSecretUntil).getTime()
      )
        secrets.push(this.cipher.decrypt(delivery.previousSecretSealed));
      const outcome = await tryDelivery(
        delivery.url,
        { id: delivery.id, type: delivery.type, secrets },
        body,
        this.webhookHosts,
      );
      webhookTried(outcome.delivered);
      await this.webhooks.recordTry(delivery.id, outcome);
      if (!outcome.delivered) left++;
    }
    if (left === 0) return;
    if (deliveryId !== undefined) {
      if (wasFailed) await this.webhooks.failPending(eventId, deliveryId);
      return;
    }
    if ((job.retryCount ?? 0) >= (job.retryLimit ?? 0)) {
      await this.webhooks.failPending(eventId);
      return;
    }
    throw new Error(`${left} webhook deliver${left === 1 ? 'y' : 'ies'} not delivered yet`);
  }
}
