import { DomainError, type ProblemKind } from '../errors';
import { checkSize } from '../limits';
import { storableText } from '../storable-text';
import { approvalOwnerOf, ruleOfStep } from './approval-rule';
import { cacheSlotsOf, isSameSlot, NOT_A_LOOP } from './cache-layout';
import { evolve } from './evolve';
import { parseStepOutput } from './output';
import { buildPrompt } from './prompt';
import { runIndexOf, runningRun } from './queries';
import {
  approveReview,
  askAgain,
  dueReview,
  handBackReviews,
  REVIEW_MESSAGES,
  rejectReview,
  requestReview,
  requireNoReviewBefore,
  reviewByRule,
  reviewOf,
  sendToOwnersWhereTooFew,
  waitingFor,
  waitsForReview,
  withdrawPendingReviews,
} from './reviews';
import { inExecutionOrder, sameSteps, snapshotOf } from './step-snapshots';
import {
  DEFAULT_USER_INPUT,
  type DecideContext,
  type ExecutionCommand,
  type ExecutionEvent,
  type ExecutionState,
  type StepResult,
  type StepRun,
} from './types';

export const MESSAGES = {
  executionNotFound: 'Không tìm thấy execution',
  executionExists: 'Execution đã tồn tại',
  stepNotFound: 'Không tìm thấy step trong execution này',
  loopIterationNotFound: (n: number) => `Step này không có lần lặp ${n}`,
  runNotFound: 'Không tìm thấy lần chạy',
  runNotRunning: 'Lần chạy này đã kết thúc',
  resultNotFound: 'Không tìm thấy kết quả',
  stopped: 'Execution đã dừng. Hãy reset trước khi chạy lại.',
  runInProgress: 'Step này đang chạy. Vui lòng đợi lần chạy kết thúc.',
  inputRequired: 'Step này yêu cầu user input. Vui lòng nhập input trước khi execute.',
  choiceStaysApproved: 'Lựa chọn đã chọn luôn được approve: đó là nhánh flow đã đi.',
  nothingToEdit: 'Không có gì để thay đổi: hãy gửi kết quả hoặc nhãn.',
  emptyResult: 'Kết quả không được để trống: hãy viết nội dung, hoặc xóa kết quả.',
  stepNotInFlow: 'Không tìm thấy step trong flow này',
  sourceOfAnotherFlow: 'Execution cần dùng lại thuộc về một flow khác',
  sourceOfExperiment:
    'Execution này là một run của experiment: kết quả của nó được approve theo cách duyệt của experiment, nên chỉ một experiment mới được dùng lại',
  rejectedByReview:
    'Kết quả này đã bị review reject: chỉ một review mới có thể approve. Hãy sửa để yêu cầu review lại, hoặc chạy lại step.',
  expiredReview:
    'Review của kết quả này đã quá hạn mà chưa được approve: chỉ một review mới có thể approve. Hãy sửa để yêu cầu review lại, hoặc chạy lại step.',
  approvedByReview:
    'Kết quả này đã được review approve: chỉ review mới thay đổi được. Hãy sửa để yêu cầu review lại, hoặc chạy lại step.',
  needsReview: 'Kết quả của step này do review approve: hãy yêu cầu review thay vì tự approve',
  notApprovedByReview: (order: number, name: string) =>
    `Step ${order} (${name}) chưa được review approve: step sau chỉ được dùng nội dung đã được reviewer approve`,
  changedSinceApproval: (order: number, name: string) =>
    `Step ${order} (${name}): nội dung khác với bản reviewer đã approve; hãy yêu cầu review lại`,
  nothingApprovedToReuse: (order: number, name: string) =>
    `Step ${order} (${name}) chưa có kết quả nào được approve để dùng lại. Hãy approve một kết quả của step này, hoặc chạy lại từ step đó.`,
} as const;

/**
 * Only a review decides a result its step's rule or a review asked for (see approval-rule.ts): the runner's
 * tick, untick or re-tick of it is refused with the reason.
 */
function requireDirectApproval(state: ExecutionState, result: StepResult) {
  const owner = approvalOwnerOf(state, result);
  if (owner.by === 'runner' || (owner.by === 'rule' && owner.selfApproval)) return;
  if (owner.by === 'rule') throw refuse('forbidden', MESSAGES.needsReview);
  const { review } = owner;
  if (review.status === 'pending') throw refuse('forbidden', REVIEW_MESSAGES.waiting(waitingFor(review)));
  if (review.status === 'approved') throw refuse('forbidden', MESSAGES.approvedByReview);
  if (review.status === 'expired') throw refuse('forbidden', MESSAGES.expiredReview);
  throw refuse('forbidden', MESSAGES.rejectedByReview);
}

/** A result is text someone can read and build on: whitespace alone is no result. */
export const isBlankResult = (text: string) => text.trim() === '';

const refuse = (kind: ProblemKind, message: string) => new DomainError(kind, message);

function stepOf(state: ExecutionState, stepId: string) {
  const step = state.steps.find((s) => s.id === stepId);
  if (!step) throw refuse('not_found', MESSAGES.stepNotFound);
  return step;
}

function resultOf(state: ExecutionState, resultId: string): StepResult {
  // Looked for from the end: the results a command is about are most often the latest.
  const result = state.results.findLast((r) => r.id === resultId);
  if (!result) throw refuse('not_found', MESSAGES.resultNotFound);
  return result;
}

function runningRunOf(state: ExecutionState, runId: string): StepRun {
  const run = state.runs[runIndexOf(state.runs, runId)];
  if (!run) throw refuse('not_found', MESSAGES.runNotFound);
  if (run.status !== 'running') throw refuse('conflict', MESSAGES.runNotRunning);
  return run;
}

/** Which cache item a run works on: a pending one, or none when it is a new version of finished work. */
function workOf(state: ExecutionState, stepId: string, loopIteration: number | null) {
  const items = state.executionCache.filter((item) => item.stepId === stepId);
  if (loopIteration !== null) {
    const item = items.find((i) => i.loopIteration === loopIteration);
    if (!item) throw refuse('not_found', MESSAGES.loopIterationNotFound(loopIteration));
    return { cacheItemId: item.status === 'pending' ? item.id : null, loopIteration };
  }
  const pending = items.find((i) => i.status === 'pending');
  if (pending) return { cacheItemId: pending.id, loopIteration: pending.loopIteration };
  return { cacheItemId: null, loopIteration: items.at(-1)?.loopIteration ?? NOT_A_LOOP };
}

/** Once no work is pending, a running execution is completed (an empty one never had work to finish). */
function completionAfter(state: ExecutionState, events: ExecutionEvent[], at: string): ExecutionEvent[] {
  const after = events.reduce(evolve, state);
  const done =
    after.status === 'running' &&
    after.executionCache.length > 0 &&
    after.executionCache.every((item) => item.status === 'completed') &&
    // A step waiting for review holds the execution open until it is decided.
    !waitsForReview(after);
  return done ? [...events, { type: 'ExecutionCompleted', data: { at } }] : events;
}

/** The flow version the context's steps are of, when it is known. */
const flowVersionOf = ({ flowVersion }: DecideContext) => (flowVersion === undefined ? {} : { flowVersion });

/** A new execution of the flow's current steps, each unit of work with an id of its own. */
function executionStarted(
  executionId: string,
  flowId: string,
  experimentId: string | undefined,
  context: DecideContext,
): Extract<ExecutionEvent, { type: 'ExecutionStarted' }> {
  const steps = inExecutionOrder(context.steps).map(snapshotOf);
  const cacheItemIds = cacheSlotsOf(steps).map(() => context.newId());
  return {
    type: 'ExecutionStarted',
    data: {
      executionId,
      userId: context.userId,
      flowId,
      steps,
      ...flowVersionOf(context),
      ...(context.workspaceId ? { workspaceId: context.workspaceId } : {}),
      ...(experimentId ? { experimentId } : {}),
      cacheItemIds,
      at: context.now,
    },
  };
}

/**
 * A new execution of the flow as it is now, in which the steps before `fromStepId` are done with the
 * source's approved results: only approved text is carried on, so a step without any stops the re-run.
 */
function startFrom(
  data: Extract<ExecutionCommand, { type: 'StartExecutionFrom' }>['data'],
  context: DecideContext,
): ExecutionEvent[] {
  const { source } = data;
  if (source.flowId !== data.flowId) throw refuse('rule_violated', MESSAGES.sourceOfAnotherFlow);
  // An experiment may approve a step its flow has reviewers for (its `auto` and `judge` modes): those
  // approvals stay inside experiments, never carried into a person's run.
  if (source.experimentId !== null && data.experimentId === undefined)
    throw refuse('rule_violated', MESSAGES.sourceOfExperiment);
  const started = executionStarted(data.executionId, data.flowId, data.experimentId, context);
  const { steps } = started.data;
  const from = steps.findIndex((step) => step.id === data.fromStepId);
  if (from === -1) throw refuse('not_found', MESSAGES.stepNotInFlow);
  const reusedSteps = steps.slice(0, from);
  const approvedOf = reusedSteps.map((step) => {
    const approved = source.results.filter((result) => result.stepId === step.id && result.approved);
    if (approved.length === 0)
      throw refuse('rule_violated', MESSAGES.nothingApprovedToReuse(step.order, step.name));
    return { step, approved };
  });
  const results = approvedOf.flatMap(({ step, approved }) =>
    approved.map((result) => ({
      resultId: context.newId(),
      sourceResultId: result.id,
      sourceRunId: result.runId,
      stepId: step.id,
      stepOrder: step.order,
      label: result.label,
      branchName: result.branchName,
      branchPath: result.branchPath,
      choiceIndex: result.choiceIndex,
      loopIteration: result.loopIteration,
      content: result.result,
    })),
  );
  return [
    started,
    {
      type: 'ResultsReused',
      data: {
        sourceExecutionId: source.id,
        sourceStartedAt: source.startedAt,
        fromStepId: data.fromStepId,
        stepIds: reusedSteps.map((step) => step.id),
        results,
        at: context.now,
      },
    },
  ];
}

/** The flow's steps as the execution's, when they differ: the steps of a run to come, and their cache items. */
function syncSteps(state: ExecutionState, context: DecideContext): ExecutionEvent[] {
  // An experiment's run compares the flow version it started from: a later version never reaches it.
  if (state.experimentId !== null) return [];
  const steps = inExecutionOrder(context.steps).map(snapshotOf);
  if (sameSteps(steps, state.steps)) return [];
  const missing = cacheSlotsOf(steps).filter(
    (slot) => !state.executionCache.some((item) => isSameSlot(slot, item)),
  );
  const synced: ExecutionEvent = {
    type: 'StepsSynced',
    data: {
      steps,
      ...flowVersionOf(context),
      cacheItemIds: missing.map(() => context.newId()),
      at: context.now,
    },
  };
  // Removing the last unfinished step finishes the execution just as running it would.
  return completionAfter(state, [synced], context.now);
}

type StartStepRun = Extract<ExecutionCommand, { type: 'StartStepRun' }>['data'];

/** A run of a step, on the execution as it stands. */
function startStepRun(data: StartStepRun, state: ExecutionState, context: DecideContext): ExecutionEvent[] {
  const at = context.now;
  const step = stepOf(state, data.stepId);
  if (state.status === 'stopped') throw refuse('conflict', MESSAGES.stopped);
  if (step.requiresUserInput && data.userInput.trim() === '')
    throw refuse('rule_violated', MESSAGES.inputRequired);
  // One run per step at a time: two runs of the same work would race to complete the same cache item.
  if (runningRun(state, step.id)) throw refuse('conflict', MESSAGES.runInProgress);
  requireNoReviewBefore(state, step.id);
  const work = workOf(state, step.id, data.loopIteration);
  checkSize('Input của người dùng', data.userInput.length, 'maxTextChars', context.limits);
  const userInput = data.userInput.trim() === '' ? DEFAULT_USER_INPUT : data.userInput;
  const prompt = buildPrompt({
    limits: context.limits,
    step,
    steps: state.steps,
    results: state.results,
    userInput,
    conversation: data.conversation,
    loopIteration: work.loopIteration,
  });
  requireApprovedTexts(state, prompt.usedResultIds, context.textHash);
  return [
    {
      type: 'StepRunStarted',
      data: {
        runId: data.runId,
        stepId: step.id,
        stepOrder: step.order,
        loopIteration: work.loopIteration,
        cacheItemId: work.cacheItemId,
        userInput,
        systemPrompt: step.systemPrompt,
        finalPrompt: prompt.finalPrompt,
        stepLabels: prompt.stepLabels,
        unresolvedLabels: prompt.unresolvedLabels,
        unreviewedResults: prompt.unreviewedResults,
        outputMode: step.outputMode,
        choices: [...step.choices],
        model: data.model,
        ...(data.provider !== undefined ? { provider: data.provider } : {}),
        keySource: data.keySource,
        instanceId: data.instanceId,
        at,
      },
    },
  ];
}

/**
 * What was approved is what is used: a result under review (its step's rule, or a review asked for it) may go
 * into a later step's prompt only once a review approved it, and only as the text its reviewers approved (the
 * hash each of them approved). Results no rule asks anyone to review may be used unapproved, as before.
 */
function requireApprovedTexts(
  state: ExecutionState,
  usedResultIds: readonly string[],
  textHash: (t: string) => string,
) {
  for (const resultId of usedResultIds) {
    const result = state.results.find((r) => r.id === resultId);
    if (!result) continue;
    const owner = approvalOwnerOf(state, result);
    if (owner.by === 'runner') continue;
    const step = state.steps.find((s) => s.id === result.stepId);
    const [order, name] = [result.stepOrder, step?.name ?? ''];
    if (!result.approved) {
      // A rule that lets the runner approve their own step lets its unapproved text be used as before.
      if (owner.by === 'rule' && owner.selfApproval) continue;
      throw refuse('conflict', MESSAGES.notApprovedByReview(order, name));
    }
    if (owner.by !== 'review') continue;
    const hash = textHash(result.result);
    const approvedOther = owner.review.approvalsGiven.some((approval) =>
      approval.texts?.some((t) => t.resultId === resultId && t.sha256 !== hash),
    );
    if (owner.review.status !== 'approved' || approvedOther)
      throw refuse('conflict', MESSAGES.changedSinceApproval(order, name));
  }
}

/** The events of a change to reviewed results, with any review they ask for sent on to the owners if need be. */
function withDeciders(
  state: ExecutionState,
  events: ExecutionEvent[],
  context: DecideContext,
): ExecutionEvent[] {
  if (!events.some((e) => e.type === 'ReviewRequested')) return events;
  return [...events, ...sendToOwnersWhereTooFew(events.reduce(evolve, state), context.members, context.now)];
}

/**
 * A reviewed result's text changed or it was deleted: its approval (and the approval of the review's other
 * results, which were approved together) is void, and the review is asked again. A result under a rule that
 * no review was asked for yet is asked for by the rule.
 */
function voidApproval(
  state: ExecutionState,
  result: StepResult,
  because: 'edited' | 'deleted',
  context: DecideContext,
): ExecutionEvent[] {
  const at = context.now;
  const owner = approvalOwnerOf(state, result);
  if (owner.by === 'runner') return [];
  const reviewed = owner.by === 'review' ? owner.review.resultIds : [result.id];
  const remaining = reviewed.filter(
    (id) => (because === 'edited' || id !== result.id) && state.results.some((r) => r.id === id),
  );
  const unapproved: ExecutionEvent[] = state.results
    .filter((r) => remaining.includes(r.id) && r.approved)
    .map((r) => ({ type: 'ResultUnapproved', data: { resultId: r.id, at } }));
  if (owner.by === 'review')
    return [
      ...unapproved,
      ...askAgain(owner.review, state, { because, resultIds: remaining, newId: context.newId, at }),
    ];
  if (because === 'deleted' || !result.approved) return unapproved;
  return [
    ...unapproved,
    ...reviewByRule({
      rule: owner.rule,
      newId: context.newId,
      stepId: result.stepId,
      runId: result.runId,
      resultIds: [result.id],
      // Asked for the execution's runner, whoever edited (a reviewer may): the person whose step it is
      // never decides it, as when the rule asked it after their run.
      requestedBy: state.userId,
      at,
    }),
  ];
}

/** The step's earlier approved results of the same loop iteration: a new run under review voids them. */
function earlierApprovedOf(state: ExecutionState, stepId: string, loopIteration: number) {
  return state.results.filter(
    (r) =>
      r.stepId === stepId &&
      r.approved &&
      r.choiceIndex === null &&
      r.origin === undefined &&
      (r.loopIteration ?? NOT_A_LOOP) === loopIteration,
  );
}

export function decide(
  command: ExecutionCommand,
  state: ExecutionState,
  context: DecideContext,
): ExecutionEvent[] {
  const at = context.now;
  if (command.type === 'StartExecution') {
    if (state.exists) throw refuse('conflict', MESSAGES.executionExists);
    return [
      executionStarted(command.data.executionId, command.data.flowId, command.data.experimentId, context),
    ];
  }
  if (command.type === 'StartExecutionFrom') {
    if (state.exists) throw refuse('conflict', MESSAGES.executionExists);
    return startFrom(command.data, context);
  }
  if (!state.exists) throw refuse('not_found', MESSAGES.executionNotFound);

  switch (command.type) {
    case 'StartStepRun': {
      // A run first brings the execution's steps up to date with the flow, in the same command: a run
      // refused (on the synced steps) leaves no sync behind.
      const synced = syncSteps(state, context);
      const current = synced.reduce(evolve, state);
      return [...synced, ...startStepRun(command.data, current, context)];
    }

    case 'CompleteStepRun': {
      const { data } = command;
      const run = runningRunOf(state, data.runId);
      // The step as the execution knows it now; a step removed meanwhile is read as plain text.
      const step = state.steps.find((s) => s.id === run.stepId);
      const results = parseStepOutput({
        outputMode: step?.outputMode ?? 'single',
        choices: step?.choices ?? [],
        loopIteration: run.loopIteration,
        output: data.output,
      }).map((result) => ({
        resultId: context.newId(),
        ...result,
        // The model's text, parsed: what it wrote (a JSON escape too) must not keep its answer from being stored.
        label: storableText(result.label),
        content: storableText(result.content),
        branchName: result.branchName === null ? null : storableText(result.branchName),
        branchPath: result.branchPath === null ? null : storableText(result.branchPath),
      }));
      const succeeded: ExecutionEvent = {
        type: 'StepRunSucceeded',
        data: {
          runId: run.runId,
          results,
          usage: data.usage,
          durationMs: data.durationMs,
          ...(data.reasks ? { reasks: data.reasks } : {}),
          ...(data.firstTokenMs !== undefined ? { firstTokenMs: data.firstTokenMs } : {}),
          at,
        },
      };
      // A step another person approves asks them for review of what it just produced (in a workspace: an
      // execution outside one has nobody else to ask, and keeps its runner's rule).
      const review = reviewByRule({
        rule: ruleOfStep(state, run.stepId),
        newId: context.newId,
        stepId: run.stepId,
        runId: run.runId,
        resultIds: results.filter((r) => r.choiceIndex === null).map((r) => r.resultId),
        requestedBy: context.userId,
        at,
      });
      // The step's earlier approved versions are void once a new one waits for review: the next step uses
      // the text the reviewers approve now.
      const voided: ExecutionEvent[] =
        review.length === 0
          ? []
          : earlierApprovedOf(state, run.stepId, run.loopIteration).map((r) => ({
              type: 'ResultUnapproved',
              data: { resultId: r.id, at },
            }));
      return withDeciders(state, completionAfter(state, [succeeded, ...voided, ...review], at), context);
    }

    case 'FailStepRun': {
      const { data } = command;
      const run = runningRunOf(state, data.runId);
      return [
        {
          type: 'StepRunFailed',
          data: {
            runId: run.runId,
            message: storableText(data.message),
            retryable: data.retryable,
            ...(data.reasks ? { reasks: data.reasks } : {}),
            ...(data.firstTokenMs !== undefined ? { firstTokenMs: data.firstTokenMs } : {}),
            at,
          },
        },
      ];
    }

    case 'ApproveResult': {
      const result = resultOf(state, command.data.resultId);
      if (result.approved) return [];
      requireDirectApproval(state, result);
      return [{ type: 'ResultApproved', data: { resultId: result.id, at } }];
    }

    case 'RequestReview':
      return withDeciders(state, requestReview(command.data, state, context), context);

    case 'ApproveReview': {
      const review = reviewOf(state, command.data.reviewId);
      const events = approveReview(
        review,
        context.userId,
        context.role,
        command.data.comment,
        state,
        at,
        context.textHash,
      );
      return events.length === 0 ? [] : completionAfter(state, events, at);
    }

    case 'RejectReview': {
      const review = reviewOf(state, command.data.reviewId);
      return rejectReview(review, context.userId, context.role, command.data.reason, at);
    }

    case 'DueReview':
      return dueReview(reviewOf(state, command.data.reviewId), at);

    case 'HandBackReviews': {
      const handedBack = handBackReviews(state, command.data.userId, at);
      const after = handedBack.reduce(evolve, state);
      return [...handedBack, ...sendToOwnersWhereTooFew(after, context.members, at)];
    }

    case 'CheckReviewDeciders':
      return sendToOwnersWhereTooFew(state, context.members, at);

    case 'UnapproveResult': {
      const result = resultOf(state, command.data.resultId);
      if (result.choiceIndex !== null) throw refuse('rule_violated', MESSAGES.choiceStaysApproved);
      if (!result.approved) return [];
      requireDirectApproval(state, result);
      return [{ type: 'ResultUnapproved', data: { resultId: result.id, at } }];
    }

    case 'EditResult': {
      const { data } = command;
      const result = resultOf(state, data.resultId);
      if (data.result === undefined && data.label === undefined)
        throw refuse('rule_violated', MESSAGES.nothingToEdit);
      if (data.result !== undefined && isBlankResult(data.result))
        throw refuse('rule_violated', MESSAGES.emptyResult);
      if (data.result !== undefined) checkSize('Kết quả', data.result.length, 'maxTextChars', context.limits);
      const after = data.result ?? result.result;
      // The default for a label cleared in the editor.
      const fallbackLabel = `step_${result.stepOrder}`;
      const label =
        data.label === undefined ? (result.label ?? fallbackLabel) : data.label.trim() || fallbackLabel;
      // A form sending back what is already there changes nothing, so it records nothing.
      if (after === result.result && label === result.label) return [];
      const edited: ExecutionEvent = {
        type: 'ResultEdited',
        data: {
          resultId: result.id,
          before: result.result,
          after,
          label,
          by: context.userId,
          // An edit after an edit carries the model's own text, which `before` no longer is.
          ...(result.edited && result.edited.modelText !== result.result
            ? { modelText: result.edited.modelText }
            : {}),
          at,
        },
      };
      // A new text, or a new label (a later step's prompt names several results by their labels), voids what
      // was approved and asks the review again.
      return withDeciders(state, [edited, ...voidApproval(state, result, 'edited', context)], context);
    }

    case 'DeleteResult': {
      const result = resultOf(state, command.data.resultId);
      const deleted: ExecutionEvent = {
        type: 'ResultDeleted',
        data: { resultId: result.id, content: result.result, at },
      };
      return withDeciders(state, [deleted, ...voidApproval(state, result, 'deleted', context)], context);
    }

    case 'StopExecution':
      if (state.status === 'stopped') return [];
      return [{ type: 'ExecutionStopped', data: { at } }];

    case 'ResetExecution':
      return [
        ...withdrawPendingReviews(state, at),
        {
          type: 'ExecutionReset',
          data: { cacheItemIds: cacheSlotsOf(state.steps).map(() => context.newId()), at },
        },
      ];

    default: {
      const unknown: never = command;
      throw refuse('rule_violated', `Unknown command ${(unknown as { type: string }).type}`);
    }
  }
}
