import type { FastifyBaseLogger } from 'fastify';
import { DomainError } from '../../domain/errors';
import { possibleDeciders } from '../../domain/execution/reviews';
import type { ExecutionEvent, Review } from '../../domain/execution/types';
import { reviewLink } from '../../domain/review-link';
import type { RecordedEvent } from '../../eventstore';
import type { EventReaction } from '../commands/command-handler';
import { JobQueue, type Retry } from '../notifications/job-queue';
import type { MailJob, ReviewMailValues } from '../notifications/mails';
import type { Notifications } from '../notifications/notifications';
import { reviewSettled } from '../telemetry/metrics';
import type { UsersRepository } from '../users/users-repository';
import type { ExecutionCommands } from './execution-commands';
import type { ReviewNotice, ReviewsRepository } from './reviews-repository';

/** The queues of reviews' work: due times, mails, hand-backs when a member leaves. */
export const REVIEW_DUE_QUEUE = 'review-due';
export const REVIEW_MAIL_QUEUE = 'review-mail';
export const REVIEW_HAND_BACK_QUEUE = 'review-hand-back';
export const REVIEW_RULE_CHANGED_QUEUE = 'review-rule-changed';

/** A due time, a hand-back, a review's mails are tried again for a few hours: 30 s, 1 min, 2 min, ... */
const REVIEW_RETRY: Retry = { retryLimit: 10, retryDelay: 30, retryBackoff: true };

/** Who a review's mail is for: the people it asks, the workspace's owners, or the runner. */
type Notice =
  | 'requested'
  | 'rule-changed'
  | 'reminder'
  | 'escalated-due'
  | 'escalated-member-left'
  | 'escalated-too-few'
  | 'decided';

interface ReviewDueJob {
  executionId: string;
  reviewId: string;
}
interface ReviewMailJob {
  executionId: string;
  reviewId: string;
  notice: Notice;
  /** The event that called for it: with each recipient, it names the mail, so a retry sends it once. */
  eventId: string;
}
interface HandBackJob {
  workspaceId: string;
  userId: string;
  /** Who removed them (or changed their role): the hand-back is theirs. */
  removedBy: string;
  /** The member stays, in another role: nothing names them less, but fewer may decide some reviews. */
  roleChanged?: boolean;
}

/** A step's review rule changed: the people asked by its pending reviews are told. */
interface RuleChangedJob {
  flowId: string;
  stepId: string;
  eventId: string;
}

/** The record a `<type>-<id>` stream is of (an execution, a workspace). */
const recordIdOf = (streamId: string) => streamId.slice(streamId.indexOf('-') + 1);

/**
 * What a review's events set going, none of which holds up a command: its due time as a durable timer, mails
 * to the people it concerns, and, when a member leaves a workspace, the reviews naming them handed to the
 * owners. Each is a job written in the command's transaction and worked by any instance.
 */
export class ReviewNotices {
  constructor(
    private readonly queue: JobQueue,
    private readonly executions: ExecutionCommands,
    private readonly reviews: ReviewsRepository,
    private readonly users: UsersRepository,
    private readonly notifications: Pick<Notifications, 'mails' | 'queueMail'>,
    private readonly publicUrl: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start() {
    for (const name of [
      REVIEW_DUE_QUEUE,
      REVIEW_MAIL_QUEUE,
      REVIEW_HAND_BACK_QUEUE,
      REVIEW_RULE_CHANGED_QUEUE,
    ])
      await this.queue.ensure(name, REVIEW_RETRY);
    await this.queue.work<ReviewDueJob>(REVIEW_DUE_QUEUE, (job) => this.due(job.data));
    await this.queue.work<ReviewMailJob>(REVIEW_MAIL_QUEUE, (job) => this.mail(job.data));
    await this.queue.work<HandBackJob>(REVIEW_HAND_BACK_QUEUE, (job) => this.handBack(job.data));
    await this.queue.work<RuleChangedJob>(REVIEW_RULE_CHANGED_QUEUE, (job) => this.ruleChanged(job.data));
  }

  /** The jobs a command's events call for, in its transaction. */
  readonly reaction: EventReaction = (tx, recorded, source) =>
    recorded.flatMap((event) =>
      this.jobsOf(event, source.streamType).map((insert) => JobQueue.statementOf(tx, insert)),
    );

  private jobsOf(recorded: RecordedEvent, streamType: string) {
    if (streamType === 'workspace') {
      if (recorded.type !== 'MemberRemoved' && recorded.type !== 'MemberRoleChanged') return [];
      const { userId } = recorded.data as { userId: string };
      const job: HandBackJob = {
        workspaceId: recordIdOf(recorded.streamId),
        userId,
        removedBy: (recorded.metadata.userId as string | undefined) ?? userId,
        ...(recorded.type === 'MemberRoleChanged' ? { roleChanged: true } : {}),
      };
      return [this.queue.insertOf({ name: REVIEW_HAND_BACK_QUEUE, data: job }, REVIEW_RETRY)];
    }
    if (streamType === 'flow') {
      const data = recorded.data as { stepId?: string; after?: Record<string, unknown> };
      if (
        recorded.type !== 'StepEdited' ||
        !this.notifications.mails ||
        !data.after ||
        !('review' in data.after)
      )
        return [];
      const job: RuleChangedJob = {
        flowId: recordIdOf(recorded.streamId),
        stepId: data.stepId!,
        eventId: recorded.eventId,
      };
      return [this.queue.insertOf({ name: REVIEW_RULE_CHANGED_QUEUE, data: job }, REVIEW_RETRY)];
    }
    if (streamType !== 'execution') return [];
    const executionId = recordIdOf(recorded.streamId);
    const event = { type: recorded.type, data: recorded.data } as ExecutionEvent;
    const inserts = [];
    if (event.type === 'ReviewRequested' && event.data.dueAt !== null) {
      const { reviewId } = event.data;
      const job = { name: REVIEW_DUE_QUEUE, data: { executionId, reviewId } satisfies ReviewDueJob };
      inserts.push(
        this.queue.timerInsertOf(`review-due:${reviewId}`, new Date(event.data.dueAt), job, REVIEW_RETRY),
      );
    }
    const notice = this.notifications.mails ? noticeOf(event) : null;
    if (notice) {
      const data: ReviewMailJob = { executionId, ...notice, eventId: recorded.eventId };
      inserts.push(this.queue.insertOf({ name: REVIEW_MAIL_QUEUE, data }, REVIEW_RETRY));
    }
    return inserts;
  }

  /** The review's due time has come: the execution decides what that does (nothing, once it is decided). */
  private async due({ executionId, reviewId }: ReviewDueJob) {
    const loaded = await loadedOrNull(this.executions, executionId);
    const review = loaded?.state.reviews.find((r) => r.id === reviewId);
    if (!loaded || !review) return;
    // Decided on the execution just read: read again only if it moved on meanwhile.
    const handled = await this.executions.handle(
      executionId,
      review.requestedBy,
      { type: 'DueReview', data: { reviewId } },
      { loaded },
    );
    const settled = handled.state.reviews.find((r) => r.id === reviewId);
    if (handled.events.length > 0 && settled) reviewSettled(settled);
  }

  /**
   * A member left the workspace or took another role: every pending review naming a member who left goes to
   * the owners, and so does every pending review that fewer people may now decide than it needs.
   */
  private async handBack({ workspaceId, userId, removedBy, roleChanged }: HandBackJob) {
    const naming = roleChanged ? [] : await this.reviews.executionsNaming(workspaceId, userId);
    for (const executionId of naming)
      await this.executions.handle(executionId, removedBy, { type: 'HandBackReviews', data: { userId } });
    for (const executionId of await this.reviews.executionsWithPendingReviews(workspaceId)) {
      if (naming.includes(executionId)) continue;
      await this.executions.handle(executionId, removedBy, { type: 'CheckReviewDeciders', data: {} });
    }
  }

  /** A step's rule changed: the people still asked by each of its pending reviews hear of it. */
  private async ruleChanged({ flowId, stepId, eventId }: RuleChangedJob) {
    for (const { reviewId, executionId } of await this.reviews.pendingOfStep(flowId, stepId))
      await this.mail({ executionId, reviewId, notice: 'rule-changed', eventId: `${eventId}:${reviewId}` });
  }

  /** The mails of a review's event, one to each person it concerns, each queued once. */
  private async mail({ executionId, reviewId, notice, eventId }: ReviewMailJob) {
    const [loaded, about] = await Promise.all([
      loadedOrNull(this.executions, executionId),
      this.reviews.noticeOf(reviewId),
    ]);
    const review = loaded?.state.reviews.find((r) => r.id === reviewId);
    if (!review || !about?.workspaceId) return;
    // An approval short of the number needed decides nothing yet: the runner hears of the decision.
    if (notice === 'decided' && review.status === 'pending') return;
    const values: ReviewMailValues = {
      flowName: about.flowName,
      stepName: about.stepName,
      requestedBy: about.requestedByName,
      dueAt: review.dueAt,
      link: `${this.publicUrl}${reviewLink(about.flowId, executionId, review.stepId)}`,
    };
    const decidedBy = notice === 'decided' ? await decidersOf(review, this.users) : null;
    for (const { userId, email } of await this.recipients(notice, review, about)) {
      const mail = mailFor(notice, email, values, review, decidedBy);
      if (mail) await this.notifications.queueMail(mail, JobQueue.idFor(`${eventId}:${userId}`));
    }
    this.log.debug({ reviewId, notice }, 'review mails queued');
  }

  private async recipients(notice: Notice, review: Review, about: ReviewNotice) {
    const workspaceId = about.workspaceId!;
    if (notice === 'decided') {
      // The runner, while a member: someone who left the workspace hears no more of its records.
      const members = await this.reviews.membersWithAddresses(workspaceId);
      return members.filter((member) => member.userId === review.requestedBy);
    }
    // Those the review waits for (the one rule the inbox and the decider follow); an escalation, only the
    // owners among them, whom it newly concerns.
    const waiting = possibleDeciders(review, await this.reviews.membersWithAddresses(workspaceId));
    if (notice === 'escalated-due' || notice === 'escalated-member-left' || notice === 'escalated-too-few')
      return waiting.filter((member) => member.role === 'owner');
    return waiting;
  }
}

/** Which mail an execution's event calls for, and about which review; null: none. */
function noticeOf(event: ExecutionEvent): { reviewId: string; notice: Notice } | null {
  switch (event.type) {
    case 'ReviewRequested':
      return { reviewId: event.data.reviewId, notice: 'requested' };
    case 'ReviewDue': {
      const notice = ({ remind: 'reminder', escalate: 'escalated-due', fail: 'decided' } as const)[
        event.data.onDue
      ];
      return { reviewId: event.data.reviewId, notice };
    }
    case 'ReviewHandedBack':
      return { reviewId: event.data.reviewId, notice: 'escalated-member-left' };
    case 'ReviewSentToOwners':
      return { reviewId: event.data.reviewId, notice: 'escalated-too-few' };
    case 'ReviewApproved':
    case 'ReviewRejected':
      return { reviewId: event.data.reviewId, notice: 'decided' };
    default:
      return null;
  }
}

function mailFor(
  notice: Notice,
  to: string,
  values: ReviewMailValues,
  review: Review,
  decidedBy: string | null,
): MailJob | null {
  switch (notice) {
    case 'requested':
      return { to, template: 'reviewRequested', values: { ...values, note: review.note } };
    case 'reminder':
      return { to, template: 'reviewReminder', values };
    case 'rule-changed':
      return { to, template: 'reviewRuleChanged', values };
    case 'escalated-due':
    case 'escalated-member-left':
    case 'escalated-too-few': {
      const reason = (
        {
          'escalated-due': 'due',
          'escalated-member-left': 'member-left',
          'escalated-too-few': 'too-few-deciders',
        } as const
      )[notice];
      return { to, template: 'reviewEscalated', values: { ...values, reason } };
    }
    case 'decided': {
      // Withdrawn by a reset before this mail went out: nothing to tell.
      if (review.status !== 'approved' && review.status !== 'rejected' && review.status !== 'expired')
        return null;
      return {
        to,
        template: 'reviewDecided',
        values: { ...values, outcome: review.status, decidedBy, reason: review.rejection?.reason ?? null },
      };
    }
  }
}

/** Who decided the review, in words: the people who approved it, or who rejected it; null: its due time. */
async function decidersOf(review: Review, users: UsersRepository): Promise<string | null> {
  const ids =
    review.status === 'approved'
      ? review.approvalsGiven.map((a) => a.userId)
      : review.rejection
        ? [review.rejection.userId]
        : [];
  if (ids.length === 0) return null;
  const actor = await users.actors(ids);
  return ids.map((id) => actor(id).name ?? id).join(', ');
}

/** The execution, or null when there is none any more (the job then has nothing to do). */
async function loadedOrNull(executions: ExecutionCommands, executionId: string) {
  try {
    return await executions.load(executionId, null);
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'not_found') return null;
    throw error;
  }
}
