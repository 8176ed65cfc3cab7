import { z } from 'zod';
import { PRODUCT_RULE } from './errors';

/**
 * Who approves a step's results: the person who ran it (`runner`, as always), the named members
 * (`members`), or any member of the flow's workspace with a role (`role`).
 */
export const REVIEW_BY = ['runner', 'members', 'role'] as const;
export type ReviewBy = (typeof REVIEW_BY)[number];

/** The roles a review may ask for: those whose members may review a workspace's results. */
export const REVIEW_ROLES = ['reviewer', 'editor', 'owner'] as const;
export type ReviewRole = (typeof REVIEW_ROLES)[number];

/** What is meant to happen when a review is still open at its due time (carried, not fired here). */
export const ON_DUE = ['remind', 'escalate', 'fail'] as const;
export type OnDue = (typeof ON_DUE)[number];

export const MAX_REVIEWERS = 20;
export const MAX_DUE_IN_HOURS = 8760;
/** The longest note to the reviewers, approval comment or rejection reason. */
export const MAX_REVIEW_TEXT = 2000;

/** A step's review rule as stored: the defaults filled in. */
export interface StepReview {
  by: ReviewBy;
  userIds?: string[];
  role?: ReviewRole;
  approvals: number;
  selfApproval: boolean;
  dueInHours?: number;
  onDue?: OnDue;
}

export const REVIEW_MESSAGES = {
  membersNeedUsers: 'review: by "members" needs userIds, the people who may approve',
  roleNeedsRole: 'review: by "role" needs role (reviewer, editor or owner)',
  runnerTakesNoOne: 'review: by "runner" names no userIds and no role',
  tooManyApprovals: 'review: approvals cannot be more than the people named in userIds',
  sameUserTwice: 'review: userIds names the same person twice',
  notInWorkspace:
    'review: only a flow in a workspace can have its steps approved by other members (by "members" or "role"); move the flow into a workspace first',
} as const;

const rule = { params: PRODUCT_RULE };

/** The review rule as the API, the JSON export and import take it. */
export const stepReviewSchema = z
  .strictObject({
    by: z.enum(REVIEW_BY).default('runner'),
    userIds: z.array(z.uuid()).min(1).max(MAX_REVIEWERS).optional(),
    role: z.enum(REVIEW_ROLES).optional(),
    approvals: z.int().min(1).max(MAX_REVIEWERS).optional(),
    selfApproval: z.boolean().optional(),
    dueInHours: z.int().min(1).max(MAX_DUE_IN_HOURS).optional(),
    onDue: z.enum(ON_DUE).optional(),
  })
  .superRefine((review, ctx) => {
    const issue = (message: string, path: string) =>
      ctx.addIssue({ code: 'custom', message, path: [path], ...rule });
    if (review.by === 'members' && !review.userIds) issue(REVIEW_MESSAGES.membersNeedUsers, 'userIds');
    if (review.by === 'role' && !review.role) issue(REVIEW_MESSAGES.roleNeedsRole, 'role');
    if (review.by === 'runner' && (review.userIds || review.role))
      issue(REVIEW_MESSAGES.runnerTakesNoOne, 'by');
    if (review.userIds && new Set(review.userIds).size !== review.userIds.length)
      issue(REVIEW_MESSAGES.sameUserTwice, 'userIds');
    if (review.by === 'members' && review.userIds && (review.approvals ?? 1) > review.userIds.length)
      issue(REVIEW_MESSAGES.tooManyApprovals, 'approvals');
  })
  .transform(normaliseReview);

export type StepReviewInput = z.input<typeof stepReviewSchema>;

/** The rule with its defaults: one approval; the runner may approve their own step only when they are the reviewer. */
export function normaliseReview(review: {
  by: ReviewBy;
  userIds?: string[] | undefined;
  role?: ReviewRole | undefined;
  approvals?: number | undefined;
  selfApproval?: boolean | undefined;
  dueInHours?: number | undefined;
  onDue?: OnDue | undefined;
}): StepReview {
  return {
    by: review.by,
    ...(review.by === 'members' && review.userIds ? { userIds: [...review.userIds] } : {}),
    ...(review.by === 'role' && review.role ? { role: review.role } : {}),
    approvals: review.approvals ?? 1,
    selfApproval: review.selfApproval ?? review.by === 'runner',
    ...(review.dueInHours === undefined ? {} : { dueInHours: review.dueInHours }),
    ...(review.onDue === undefined ? {} : { onDue: review.onDue }),
  };
}

/** Whether the rule asks someone else than the runner: only such a rule makes an execution wait. */
export const asksAnotherPerson = (review: StepReview | null | undefined): review is StepReview =>
  review != null && review.by !== 'runner';

/** Two rules alike, whatever order their keys were stored in. */
export function sameReview(a: StepReview | null | undefined, b: StepReview | null | undefined): boolean {
  if (a == null || b == null) return (a ?? null) === (b ?? null);
  return (
    a.by === b.by &&
    (a.userIds ?? []).join() === (b.userIds ?? []).join() &&
    (a.role ?? null) === (b.role ?? null) &&
    a.approvals === b.approvals &&
    a.selfApproval === b.selfApproval &&
    (a.dueInHours ?? null) === (b.dueInHours ?? null) &&
    (a.onDue ?? null) === (b.onDue ?? null)
  );
}
