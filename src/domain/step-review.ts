import { z } from 'zod';
import { forbidden, PRODUCT_RULE, ruleViolated } from './errors';
import { requestedId } from './record-id';
import type { Role } from './workspace/events';
import { roleMay } from './workspace/roles';

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
  membersNeedUsers: 'review: by "members" cần userIds, những người được approve',
  roleNeedsRole: 'review: by "role" cần role (reviewer, editor hoặc owner)',
  runnerTakesNoOne: 'review: by "runner" không nhận userIds hay role',
  tooManyApprovals: 'review: approvals không được nhiều hơn số người trong userIds',
  sameUserTwice: 'review: userIds có một người bị lặp lại',
  notInWorkspace:
    'review: chỉ flow trong workspace mới có step được thành viên khác approve (by "members" hoặc "role"); hãy chuyển flow vào một workspace trước',
  ownersOnly: 'review: chỉ owner của workspace mới được đặt, đổi hoặc bỏ quy tắc review của step',
  stepHasRule: 'review: step này có quy tắc review: chỉ owner của workspace mới được xóa step',
  versionHasOtherRules:
    'review: phiên bản này có quy tắc review khác với flow hiện tại: chỉ owner của workspace mới được khôi phục nó',
  choiceDropsRule:
    'review: step này có quy tắc review: chỉ owner của workspace mới được đổi nó sang hoặc từ multiple_choice (lựa chọn của model không qua review, nên đổi như vậy là tắt hoặc bật quy tắc)',
  flowHasRules: (act: 'delete it' | 'move it out of the workspace') =>
    `review: các step của flow này có quy tắc review: chỉ owner của workspace mới được ${act === 'delete it' ? 'xóa flow' : 'chuyển flow ra khỏi workspace'}`,
  notAReviewer: 'review: userIds có người không phải thành viên được phép review của workspace này',
  onlyYou: 'review: userIds chỉ có bạn: hãy chọn thêm một thành viên khác được phép review',
  tooFewOthers: (count: number) =>
    `review: approvals không được nhiều hơn ${count} người khác bạn trong userIds, trừ khi selfApproval`,
  tooFewOfRole: (role: string, count: number) =>
    `review: approvals không được nhiều hơn ${count} thành viên khác bạn có vai trò ${role}`,
} as const;

const rule = { params: PRODUCT_RULE };

/** The review rule as the API, the JSON export and import take it. */
export const stepReviewSchema = z
  .strictObject({
    by: z.enum(REVIEW_BY).default('runner'),
    userIds: z.array(requestedId()).min(1).max(MAX_REVIEWERS).optional(),
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

/**
 * The rule as it binds a step's results: none on a multiple_choice step, whose pick of a choice is the path
 * taken, approved as it comes and never asked of anyone. Making a step multiple_choice switches its rule off.
 */
export const bindingReview = (step: {
  outputMode: string;
  review?: StepReview | null | undefined;
}): StepReview | null => (step.outputMode === 'multiple_choice' ? null : (step.review ?? null));

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

/** A member of a workspace, as the rules of whom a review may ask see them. */
export interface ReviewMember {
  userId: string;
  role: Role;
}

/** Whom a review asks, as `requireApprovers` checks it. */
export interface AskedApprovers {
  by: 'members' | 'role';
  userIds: readonly string[];
  role: ReviewRole;
  approvals: number;
  selfApproval: boolean;
}

/** The words of `requireApprovers`' refusals, in the terms of the request that names the approvers. */
export interface ApproverMessages {
  notAReviewer: string;
  onlyAsker: string;
  tooFewOthers: (count: number) => string;
  tooFewOfRole: (role: ReviewRole, count: number) => string;
}

/**
 * A review must be one that someone other than `asker` (the runner asking for review, or whoever saves a
 * step's rule) can meet, among the workspace's `members`: each named person a member whose role may review,
 * someone named besides the asker, and no more approvals than the named people other than the asker (the
 * asker counts too when the review allows self-approval); for a role, no more approvals than the members
 * holding it, the asker aside.
 */
export function requireApprovers(
  members: readonly ReviewMember[],
  asked: AskedApprovers,
  asker: string,
  messages: ApproverMessages,
): void {
  if (asked.by === 'members') {
    const reviewers = new Set(members.filter((m) => roleMay(m.role, 'review')).map((m) => m.userId));
    if (asked.userIds.some((id) => !reviewers.has(id))) throw ruleViolated(messages.notAReviewer);
    const others = asked.userIds.filter((id) => id !== asker).length;
    if (others === 0) throw ruleViolated(messages.onlyAsker);
    if (asked.approvals > (asked.selfApproval ? asked.userIds.length : others))
      throw ruleViolated(messages.tooFewOthers(others));
    return;
  }
  const holders = members.filter((m) => m.role === asked.role && m.userId !== asker).length;
  if (asked.approvals > holders) throw ruleViolated(messages.tooFewOfRole(asked.role, holders));
}

/** The words of a step rule's refusals, for `requireApprovers`. */
const RULE_APPROVER_MESSAGES: ApproverMessages = {
  notAReviewer: REVIEW_MESSAGES.notAReviewer,
  onlyAsker: REVIEW_MESSAGES.onlyYou,
  tooFewOthers: REVIEW_MESSAGES.tooFewOthers,
  tooFewOfRole: REVIEW_MESSAGES.tooFewOfRole,
};

/**
 * Who saves a step's rule in a workspace must be able to see it met by someone else: a rule asking another
 * person (`members` or `role`) is checked against the workspace's members, when they are known.
 */
export function requireMeetableRule(
  review: StepReview | null | undefined,
  members: readonly ReviewMember[] | undefined,
  saver: string,
): void {
  if (!asksAnotherPerson(review) || members === undefined) return;
  const by = review.by === 'members' ? 'members' : 'role';
  requireApprovers(
    members,
    {
      by,
      userIds: review.userIds ?? [],
      role: review.role ?? 'reviewer',
      approvals: review.approvals,
      selfApproval: review.selfApproval,
    },
    saver,
    RULE_APPROVER_MESSAGES,
  );
}

/**
 * A step's review rule in a workspace is its owners' to set, change or remove: the people it checks cannot
 * switch it off. `role` is the actor's role in the flow's workspace (the web app shows the rule by it too).
 */
export const mayChangeReviewRule = (role: Role | null | undefined): boolean => role === 'owner';

/** `mayChangeReviewRule`, as the refusal a command gets when it may not. */
export function requireRuleOwner(
  role: Role | null | undefined,
  message: string = REVIEW_MESSAGES.ownersOnly,
) {
  if (!mayChangeReviewRule(role)) throw forbidden(message);
}
