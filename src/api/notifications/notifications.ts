import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Sql, TransactionSql } from 'postgres';
import type { ExecutionEvent } from '../../domain/execution/types';
import type { RecordedEvent, Statement } from '../../eventstore';
import type { EventReaction, EventSource } from '../commands/command-handler';
import type { OwnKeyCipher } from '../own-keys/own-key-cipher';
import type { WebhookEvent, WebhooksRepository } from '../workspaces';
import { JobQueue, type Retry } from './job-queue';
import type { Mailer } from './mailer';
import type { MailJob } from './mails';
import { tryDelivery } from './webhook-delivery';

/** The event types a webhook can ask for; `*` asks for all of them. */
export const WEBHOOK_EVENT_TYPES = [
  'review.requested',
  'review.decided',
  'review.due',
  'review.escalated',
  'execution.completed',
  'checkpoint.published',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

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

/** A webhook job's data: the event whose deliveries it tries. */
interface WebhookJob {
  eventId: string;
}

/**
 * What the server's events become for webhooks: a type and the data sent. Only events of a record in a
 * workspace are sent (a webhook belongs to a workspace).
 */
function webhookEventOf(recorded: RecordedEvent, source: EventSource): WebhookEvent | null {
  if (source.workspaceId === null) return null;
  if (source.streamType !== 'execution') return null;
  const executionId = recorded.streamId.slice(recorded.streamId.indexOf('-') + 1);
  const hookEvent = (type: WebhookEvent['type'], data: Record<string, unknown>): WebhookEvent => ({
    eventId: recorded.eventId,
    type,
    at: recorded.createdAt,
    workspaceId: source.workspaceId!,
    data: { executionId, ...data },
  });
  const event = { type: recorded.type, data: recorded.data } as ExecutionEvent;
  switch (event.type) {
    case 'ExecutionCompleted':
      return hookEvent('execution.completed', {});
    case 'ReviewRequested': {
      const { reviewId, stepId, by, userIds, role, approvals, requestedBy, dueAt, asksAgain } = event.data;
      return hookEvent('review.requested', {
        reviewId,
        stepId,
        by,
        userIds,
        role,
        approvals,
        requestedBy,
        dueAt,
        asksAgain: asksAgain ?? null,
      });
    }
    case 'ReviewApproved':
      return hookEvent('review.decided', {
        reviewId: event.data.reviewId,
        decision: 'approved',
        userId: event.data.userId,
        role: event.data.role,
        comment: event.data.comment,
      });
    case 'ReviewRejected':
      return hookEvent('review.decided', {
        reviewId: event.data.reviewId,
        decision: 'rejected',
        userId: event.data.userId,
        role: event.data.role,
        reason: event.data.reason,
      });
    case 'ReviewDue':
      return hookEvent('review.due', { reviewId: event.data.reviewId, onDue: event.data.onDue });
    case 'ReviewHandedBack':
      return hookEvent('review.escalated', { reviewId: event.data.reviewId, reason: 'member-left' });
    case 'ReviewSentToOwners':
      return hookEvent('review.escalated', { reviewId: event.data.reviewId, reason: event.data.reason });
    default:
      return null;
  }
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
    private readonly log: FastifyBaseLogger,
  ) {}

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
    recorded.flatMap((event) => {
      const hookEvent = webhookEventOf(event, source);
      return hookEvent === null ? [] : this.webhookStatements(tx, hookEvent);
    });

  /** In a transaction: the event's deliveries, and the one job that tries them. */
  private webhookStatements(tx: TransactionSql, hookEvent: WebhookEvent): Statement[] {
    const job: WebhookJob = { eventId: hookEvent.eventId };
    return [
      this.webhooks.deliveriesOf(tx, hookEvent),
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
      data: checkpoint,
    };
    await sql.begin((tx) => this.webhookStatements(tx, hookEvent));
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
   * queue retries later. After the last try they are marked failed.
   */
  private async deliver(job: { data: WebhookJob; retryCount?: number; retryLimit?: number }) {
    const pending = await this.webhooks.pendingOf(job.data.eventId);
    let left = 0;
    for (const delivery of pending) {
      const body = JSON.stringify(delivery.body);
      const outcome = await tryDelivery(
        delivery.url,
        this.cipher.decrypt(delivery.secretSealed),
        body,
        this.webhookHosts,
      );
      await this.webhooks.recordTry(delivery.id, outcome);
      if (!outcome.delivered) left++;
    }
    if (left === 0) return;
    if ((job.retryCount ?? 0) >= (job.retryLimit ?? 0)) {
      await this.webhooks.failPending(job.data.eventId);
      return;
    }
    throw new Error(`${left} webhook deliver${left === 1 ? 'y' : 'ies'} not delivered yet`);
  }
}
