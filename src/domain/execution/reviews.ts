import { DomainError } from '../errors';
import {
  asksAnotherPerson,
  MAX_REVIEWERS,
  type ReviewRole,
  requireApprovers,
  type StepReview,
} from '../step-review';
import type { Role } from '../workspace/events';
import { roleMay } from '../workspace/roles';
import { rejectedAsItIs, ruleOfStep } from './approval-rule';
import type { ExecutionEvent, ExecutionState, Review } from './types';

/** How far ahead a review may be due. */
export const MAX_DUE_MS = 366 * 24 * 60 * 60 * 1000;

export const REVIEW_MESSAGES = {
  reviewNotFound: 'Không tìm thấy review',
  decided: 'Review này đã được quyết định',
  withdrawn:
    'Review này đã được rút lại (kết quả của nó đã được sửa, hoặc execution đã được reset): không còn gì để quyết định ở đây',
  ownStep: 'Bạn đã chạy step này: cần người khác approve (review này không cho tự approve)',
  notNamed: 'Review này yêu cầu người khác: bạn không nằm trong số đó',
  notOfRole: (role: string) => `Review này yêu cầu thành viên có vai trò ${role}`,
  waiting: (who: string) => `Kết quả này đang chờ review của ${who}: chỉ họ mới approve được`,
  stepWaiting: (order: number, name: string) =>
    `Step ${order} (${name}) đang chờ review: step này chạy lại được, và các step sau chạy được, khi review đã được quyết định`,
  reasonRequired: 'Reject cần có lý do: người chạy step sẽ đọc lý do này',
  noOneAsked: 'Hãy chọn người review (userIds) hoặc một vai trò (role)',
  notInWorkspace:
    'Chỉ execution trong workspace mới yêu cầu người khác review được: người được yêu cầu là thành viên của workspace',
  nothingToReview: 'Step này chưa có kết quả nào để review',
  asksAsRule:
    'Step này có quy tắc review: review được yêu cầu lại từ đúng những người (hoặc vai trò) và số approve mà quy tắc đặt ra. Chỉ owner của workspace mới đổi được quy tắc.',
  rejectedAsItIs:
    'Kết quả này đã bị review reject: không thể yêu cầu review lại cùng nội dung. Hãy sửa để yêu cầu review lại, hoặc chạy lại step.',
  tooManyApprovals: 'approvals không được nhiều hơn số người trong userIds',
  dueInPast: 'dueAt phải ở tương lai',
  dueTooFar: 'dueAt chỉ được xa nhất một năm',
  tooManyReviewers: `Chỉ được yêu cầu tối đa ${MAX_REVIEWERS} người`,
  notDueYet: 'Review này chưa đến hạn',
  notAReviewer: 'userIds có người không phải thành viên được phép review của workspace này',
  tooFewOfRole: (role: string, count: number) =>
    `approvals không được nhiều hơn ${count} thành viên khác có vai trò ${role}`,
} as const;

/** The words of `requireApprovers`' refusals of a runner's request. */
const REQUEST_APPROVER_MESSAGES = {
  notAReviewer: REVIEW_MESSAGES.notAReviewer,
  onlyAsker: REVIEW_MESSAGES.ownStep,
  tooFewOthers: () => REVIEW_MESSAGES.tooManyApprovals,
  tooFewOfRole: REVIEW_MESSAGES.tooFewOfRole,
};

const refuse = (kind: 'forbidden' | 'conflict' | 'not_found' | 'rule_violated', message: string) =>
  new DomainError(kind, message);

/** Who a review waits for, in words: the named people, or a role (and the owners once it went to them). */
export function waitingFor(review: Pick<Review, 'by' | 'userIds' | 'role' | 'ownersToo'>): string {
  const asked =
    review.by === 'role'
      ? `một thành viên có vai trò ${review.role}`
      : `${review.userIds.length} người được chỉ định`;
  return review.ownersToo ? `${asked} hoặc owner của workspace` : asked;
}

/**
 * Whether `actor` (with `role` in the execution's workspace) is someone the review asks: one of the named
 * people, or a member with the role it names, and never the person who asked for it when it forbids
 * self-approval. Throws the refusal a decision by anyone else gets; a decided review is a conflict.
 */
export function requireNamedByReview(review: Review, actor: string, role: Role | null | undefined): void {
  if (review.status === 'withdrawn') throw refuse('conflict', REVIEW_MESSAGES.withdrawn);
  if (review.status !== 'pending') throw refuse('conflict', REVIEW_MESSAGES.decided);
  if (actor === review.requestedBy && !review.selfApproval)
    throw refuse('forbidden', REVIEW_MESSAGES.ownStep);
  // Escalated, or handed back when a named person left: the owners may decide it as well.
  if (review.ownersToo && role === 'owner') return;
  if (review.by === 'members' && !(review.userIds.includes(actor) && roleMay(role, 'review')))
    throw refuse('forbidden', REVIEW_MESSAGES.notNamed);
  if (review.by === 'role' && role !== review.role)
    throw refuse('forbidden', REVIEW_MESSAGES.notOfRole(review.role ?? 'reviewer'));
}

/** May `actor` with `role` decide the review? (the same rule, as a yes or no) */
export function isNamedByReview(review: Review, actor: string, role: Role | null | undefined): boolean {
  try {
    requireNamedByReview(review, actor, role);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether the review waits for this member's decision: it asks them (named, of its role, the owners once it
 * went to them; never the runner unless it allows self-approval) and they have not approved it yet, unless
 * they are an owner whose approval now settles it. The one rule of who may still decide a review: the pending
 * inbox's query (`waitsForInSql`, tested against this), the mails and the count of possible deciders use it.
 */
export const waitsFor = (review: Review, member: { userId: string; role: Role | null }): boolean =>
  isNamedByReview(review, member.userId, member.role) &&
  (!review.approvalsGiven.some((a) => a.userId === member.userId) || settledByOwner(review, member.role));

/** The members the review waits for (see waitsFor). */
export function possibleDeciders<M extends { userId: string; role: Role }>(
  review: Review,
  members: readonly M[],
): M[] {
  return members.filter((member) => waitsFor(review, member));
}

/**
 * Whether an approval by someone with `role` settles the review alone: it went to the owners because fewer
 * people may decide it than it needs, and an owner decides it (an owner who approved it before as well).
 */
export const settledByOwner = (review: Pick<Review, 'ownersReason'>, role: Role | null | undefined) =>
  review.ownersReason === 'too-few-deciders' && role === 'owner';

/** Whether fewer people may decide the review than the approvals it still needs. */
export const tooFewDeciders = (review: Review, members: readonly { userId: string; role: Role }[]) =>
  review.status === 'pending' &&
  possibleDeciders(review, members).length < review.approvalsNeeded - review.approvalsGiven.length;

/**
 * The pending reviews that fewer people may decide than they need, sent to the owners, where one owner's
 * approval settles them (once: a review gone to them so stays with them). A review the owners may decide
 * already for another reason (escalated at its due time, handed back) is sent so as well, since an owner's
 * approval there counts as one of many. No review waits on nobody.
 */
export function sendToOwnersWhereTooFew(
  state: ExecutionState,
  members: readonly { userId: string; role: Role }[] | undefined,
  at: string,
): ExecutionEvent[] {
  if (!members) return [];
  return state.reviews
    .filter(
      (r) => r.status === 'pending' && r.ownersReason !== 'too-few-deciders' && tooFewDeciders(r, members),
    )
    .map((r) => ({ type: 'ReviewSentToOwners', data: { reviewId: r.id, reason: 'too-few-deciders', at } }));
}

export function reviewOf(state: ExecutionState, reviewId: string): Review {
  const review = state.reviews.find((r) => r.id === reviewId);
  if (!review) throw refuse('not_found', REVIEW_MESSAGES.reviewNotFound);
  return review;
}

/** The pending review a result waits in, if any. */
export const pendingReviewOfResult = (state: ExecutionState, resultId: string): Review | undefined =>
  state.reviews.find((r) => r.status === 'pending' && r.resultIds.includes(resultId));

/** The pending review of a step, if any. */
export const pendingReviewOfStep = (state: ExecutionState, stepId: string): Review | undefined =>
  state.reviews.find((r) => r.status === 'pending' && r.stepId === stepId);

/** Whether any step waits for review: an execution waiting so is not completed. */
export const waitsForReview = (state: ExecutionState): boolean =>
  state.reviews.some((r) => r.status === 'pending');

/**
 * A step's run cannot start while the step, or an earlier one, waits for review: the execution goes on once
 * the review is decided.
 */
export function requireNoReviewBefore(state: ExecutionState, stepId: string): void {
  const order = state.steps.find((s) => s.id === stepId)?.order ?? Number.POSITIVE_INFINITY;
  for (const review of state.reviews) {
    if (review.status !== 'pending') continue;
    const step = state.steps.find((s) => s.id === review.stepId);
    if (step && step.order <= order)
      throw refuse('conflict', REVIEW_MESSAGES.stepWaiting(step.order, step.name));
  }
}

/** The review a step's rule asks for once a run of it produced `resultIds`; none when the runner reviews. */
export function reviewByRule(input: {
  rule: StepReview | null | undefined;
  /** The review's id, taken only when a review is asked for. */
  newId: () => string;
  stepId: string;
  runId: string;
  resultIds: string[];
  requestedBy: string;
  at: string;
}): ExecutionEvent[] {
  const { rule } = input;
  if (!asksAnotherPerson(rule) || input.resultIds.length === 0) return [];
  const dueAt =
    rule.dueInHours === undefined
      ? null
      : new Date(Date.parse(input.at) + rule.dueInHours * 60 * 60 * 1000).toISOString();
  return [
    {
      type: 'ReviewRequested',
      data: {
        reviewId: input.newId(),
        stepId: input.stepId,
        runId: input.runId,
        resultIds: input.resultIds,
        by: rule.by === 'members' ? 'members' : 'role',
        userIds: rule.by === 'members' ? [...(rule.userIds ?? [])] : [],
        role: rule.by === 'role' ? (rule.role ?? 'reviewer') : null,
        approvals: rule.approvals,
        selfApproval: rule.selfApproval,
        requestedBy: input.requestedBy,
        dueAt,
        onDue: rule.onDue ?? null,
        note: null,
        at: input.at,
      },
    },
  ];
}

type RequestReview = {
  reviewId: string;
  stepId: string;
  userIds?: string[] | undefined;
  role?: 'reviewer' | 'editor' | 'owner' | undefined;
  approvals?: number | undefined;
  dueAt?: string | undefined;
  onDue?: 'remind' | 'escalate' | 'fail' | undefined;
  note?: string | undefined;
};

/** Whether two lists name the same people, the runner aside (who never approves a review they asked for). */
const sameMembers = (a: readonly string[], b: readonly string[], runner: string) => {
  const [x, y] = [a, b].map((ids) => new Set(ids.filter((id) => id !== runner)));
  return x!.size === y!.size && [...x!].every((id) => y!.has(id));
};

/** Whom a runner's request asks: the people or role it names (checked), or its step's rule. */
interface Asked {
  by: 'members' | 'role';
  userIds: string[];
  role: ReviewRole | null;
  approvals: number;
  selfApproval: boolean;
}

/**
 * Whom a request asks. On a step whose rule asks another person, the rule's people, as many of them as it
 * asks (the workspace's owners set it; its runner asks it again, never of others); a request naming other
 * people, another role or fewer approvals is refused. Otherwise the named people (userIds) or a role (by
 * default the reviewer role), who must be able to meet it; the runner never approves it.
 */
function askedOf(
  data: RequestReview,
  rule: StepReview | null,
  context: { userId: string; members?: readonly { userId: string; role: Role }[] | undefined },
): Asked {
  const userIds = data.userIds ? [...new Set(data.userIds)] : [];
  if (rule) {
    const ruleUserIds = rule.by === 'members' ? (rule.userIds ?? []) : [];
    const ruleRole = rule.by === 'role' ? (rule.role ?? 'reviewer') : null;
    const sameAsRule =
      (userIds.length === 0 || sameMembers(userIds, ruleUserIds, context.userId)) &&
      (data.role === undefined || data.role === ruleRole) &&
      (data.approvals === undefined || data.approvals === rule.approvals);
    if (!sameAsRule) throw refuse('rule_violated', REVIEW_MESSAGES.asksAsRule);
    return {
      by: rule.by === 'members' ? 'members' : 'role',
      userIds: [...ruleUserIds],
      role: ruleRole,
      approvals: rule.approvals,
      selfApproval: rule.selfApproval,
    };
  }
  if (userIds.length > MAX_REVIEWERS) throw refuse('rule_violated', REVIEW_MESSAGES.tooManyReviewers);
  const by = userIds.length > 0 ? 'members' : 'role';
  const approvals = data.approvals ?? 1;
  if (by === 'members' && approvals > userIds.length)
    throw refuse('rule_violated', REVIEW_MESSAGES.tooManyApprovals);
  const role = data.role ?? 'reviewer';
  if (context.members)
    requireApprovers(
      context.members,
      { by, userIds, role, approvals, selfApproval: false },
      context.userId,
      REQUEST_APPROVER_MESSAGES,
    );
  return {
    by,
    userIds: by === 'members' ? userIds : [],
    role: by === 'role' ? role : null,
    approvals,
    selfApproval: false,
  };
}

/**
 * The runner asks for review of a step's results: those of its latest run that gave results, not yet
 * approved. Named people (userIds) or a role (by default the reviewer role); the runner never approves it.
 */
export function requestReview(
  data: RequestReview,
  state: ExecutionState,
  context: { userId: string; now: string; members?: readonly { userId: string; role: Role }[] | undefined },
): ExecutionEvent[] {
  if (state.workspaceId === null) throw refuse('rule_violated', REVIEW_MESSAGES.notInWorkspace);
  const step = state.steps.find((s) => s.id === data.stepId);
  if (!step) throw refuse('not_found', 'Step not found in this execution');
  if (pendingReviewOfStep(state, step.id))
    throw refuse('conflict', REVIEW_MESSAGES.stepWaiting(step.order, step.name));
  const asked = askedOf(data, ruleOfStep(state, step.id), context);
  if (data.dueAt !== undefined) {
    const due = Date.parse(data.dueAt);
    const now = Date.parse(context.now);
    if (!(due > now)) throw refuse('rule_violated', REVIEW_MESSAGES.dueInPast);
    if (due - now > MAX_DUE_MS) throw refuse('rule_violated', REVIEW_MESSAGES.dueTooFar);
  }
  const latestRun = state.runs
    .filter((run) => run.stepId === step.id && run.status === 'succeeded')
    .filter((run) => state.results.some((r) => r.runId === run.runId && !r.approved))
    .at(-1);
  const unapproved = state.results
    .filter((r) => r.stepId === step.id && !r.approved && r.runId === latestRun?.runId)
    .map((r) => r.id);
  if (unapproved.length === 0) throw refuse('rule_violated', REVIEW_MESSAGES.nothingToReview);
  // A rejection binds: the same text is not asked of anyone again, only an edit or a new run is.
  const resultIds = unapproved.filter((id) => !rejectedAsItIs(state, id));
  if (resultIds.length === 0) throw refuse('rule_violated', REVIEW_MESSAGES.rejectedAsItIs);
  return [
    {
      type: 'ReviewRequested',
      data: {
        reviewId: data.reviewId,
        stepId: step.id,
        runId: latestRun?.runId ?? null,
        resultIds,
        ...asked,
        requestedBy: context.userId,
        dueAt: data.dueAt === undefined ? null : new Date(data.dueAt).toISOString(),
        onDue: data.onDue ?? null,
        note: data.note ?? null,
        at: context.now,
      },
    },
  ];
}

/**
 * One person's approval: refused to whoever the review does not ask; the same person approving again
 * counts once (nothing new is recorded). The last approval needed approves the reviewed results.
 */
export function approveReview(
  review: Review,
  actor: string,
  role: Role | null | undefined,
  comment: string | undefined,
  state: ExecutionState,
  at: string,
  textHash: (text: string) => string,
): ExecutionEvent[] {
  const settles = settledByOwner(review, role);
  if (review.status === 'pending' && !settles && review.approvalsGiven.some((a) => a.userId === actor))
    return [];
  requireNamedByReview(review, actor, role);
  // What this person approves is the texts as they stand now: each kept with its hash.
  const texts = review.resultIds.flatMap((resultId) => {
    const result = state.results.find((r) => r.id === resultId);
    return result ? [{ resultId, sha256: textHash(result.result) }] : [];
  });
  const approved: ExecutionEvent = {
    type: 'ReviewApproved',
    data: { reviewId: review.id, userId: actor, role: role ?? null, comment: comment ?? null, texts, at },
  };
  if (!settles && review.approvalsGiven.length + 1 < review.approvalsNeeded) return [approved];
  const results = review.resultIds.filter((id) => state.results.some((r) => r.id === id && !r.approved));
  return [
    approved,
    ...results.map((resultId): ExecutionEvent => ({ type: 'ResultApproved', data: { resultId, at } })),
  ];
}

/** A rejection, with its reason: refused to whoever the review does not ask. */
export function rejectReview(
  review: Review,
  actor: string,
  role: Role | null | undefined,
  reason: string,
  at: string,
): ExecutionEvent[] {
  requireNamedByReview(review, actor, role);
  if (reason.trim() === '') throw refuse('rule_violated', REVIEW_MESSAGES.reasonRequired);
  return [
    { type: 'ReviewRejected', data: { reviewId: review.id, userId: actor, role: role ?? null, reason, at } },
  ];
}

/** What a review due without an `onDue` of its own does: it reminds. */
export const DEFAULT_ON_DUE = 'remind' as const;

/**
 * The review's due time has come: it fires once, doing what its `onDue` says (see ReviewDue). A review
 * decided or withdrawn before, or fired already, is left as it is, so a timer fired twice does nothing more;
 * a timer early by this clock is refused, to be tried again.
 */
export function dueReview(review: Review, now: string): ExecutionEvent[] {
  if (review.status !== 'pending' || review.due !== null || review.dueAt === null) return [];
  if (Date.parse(now) < Date.parse(review.dueAt)) throw refuse('conflict', REVIEW_MESSAGES.notDueYet);
  return [
    { type: 'ReviewDue', data: { reviewId: review.id, onDue: review.onDue ?? DEFAULT_ON_DUE, at: now } },
  ];
}

/**
 * `userId` left the execution's workspace: each pending review naming them goes to the owners (a review
 * asking for a role needs nothing: whoever holds the role now decides it).
 */
export const handBackReviews = (state: ExecutionState, userId: string, at: string): ExecutionEvent[] =>
  state.reviews
    .filter((r) => r.status === 'pending' && r.by === 'members' && r.userIds.includes(userId))
    .map((r) => ({ type: 'ReviewHandedBack', data: { reviewId: r.id, userId, at } }));

/** A reset withdraws the reviews still waiting: the results they asked about are no longer the step's work. */
export const withdrawPendingReviews = (state: ExecutionState, at: string): ExecutionEvent[] =>
  state.reviews
    .filter((r) => r.status === 'pending')
    .map((r) => ({ type: 'ReviewWithdrawn', data: { reviewId: r.id, at } }));

/**
 * A result a review was asked for changed (edited, or one of its results deleted): whatever was approved of
 * it is void, and the same review is asked again of the results that remain, its approvals dropped, so the
 * reviewers decide on the text as it is now. A review rejected or expired is asked again after an edit (the
 * runner's answer to the rejection), not after a delete (nothing new to decide). Nothing is asked again while
 * another review of the step waits.
 */
export function askAgain(
  review: Review,
  state: ExecutionState,
  change: { because: 'edited' | 'deleted'; resultIds: string[]; newId: () => string; at: string },
): ExecutionEvent[] {
  const { at } = change;
  const events: ExecutionEvent[] = [];
  if (review.status === 'pending')
    events.push({ type: 'ReviewWithdrawn', data: { reviewId: review.id, at } });
  else if (change.because === 'deleted' && review.status !== 'approved') return [];
  const otherPending = state.reviews.some(
    (r) => r.id !== review.id && r.status === 'pending' && r.stepId === review.stepId,
  );
  if (otherPending || change.resultIds.length === 0) return events;
  const dueAt = review.dueAt !== null && Date.parse(review.dueAt) > Date.parse(at) ? review.dueAt : null;
  events.push({
    type: 'ReviewRequested',
    data: {
      reviewId: change.newId(),
      stepId: review.stepId,
      runId: review.runId,
      resultIds: change.resultIds,
      by: review.by,
      // A person handed back when they left is not asked again.
      userIds: [...review.userIds],
      role: review.role,
      approvals: review.approvalsNeeded,
      selfApproval: review.selfApproval,
      requestedBy: review.requestedBy,
      dueAt,
      onDue: dueAt === null ? null : review.onDue,
      note: review.note,
      asksAgain: { reviewId: review.id, because: change.because },
      at,
    },
  });
  return events;
}
