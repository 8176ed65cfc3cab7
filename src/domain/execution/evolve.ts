import type { StepSnapshot } from '../flow';
import { cacheSlotsOf, currentStepOf, isSameSlot, pendingItemsFor, queueOf } from './cache-layout';
import { runIndexOf } from './queries';
import { settledByOwner } from './reviews';
import { inExecutionOrder } from './step-snapshots';
import {
  type CacheItem,
  DEFAULT_USER_INPUT,
  type ExecutionEvent,
  type ExecutionState,
  type Review,
  type StepResult,
} from './types';

export { firstPendingCacheItem, nextQueueItem, progress, resultsOfStep, runningRun } from './queries';

export function initialState(): ExecutionState {
  return {
    exists: false,
    id: '',
    userId: '',
    flowId: '',
    workspaceId: null,
    status: 'running',
    currentStep: 1,
    steps: [],
    flowVersion: null,
    experimentId: null,
    executionQueue: [],
    executionCache: [],
    results: [],
    runs: [],
    reviews: [],
    startedAt: '',
    completedAt: null,
  };
}

/** Steps, cache, and what follows from them: the queue and the current step are never stored apart. */
function planned(steps: StepSnapshot[], executionCache: CacheItem[]) {
  const executionQueue = queueOf(steps, executionCache);
  return { steps, executionCache, executionQueue, currentStep: currentStepOf(steps, executionQueue) };
}

/**
 * Applies one event. The same function runs in the projection, in command handling and in the browser,
 * so it never throws: an event naming a run or result this state does not know changes nothing.
 */
export function evolve(state: ExecutionState, event: ExecutionEvent): ExecutionState {
  switch (event.type) {
    case 'ExecutionStarted': {
      const { data } = event;
      const steps = inExecutionOrder(data.steps);
      return {
        ...initialState(),
        exists: true,
        id: data.executionId,
        userId: data.userId,
        flowId: data.flowId,
        workspaceId: data.workspaceId ?? null,
        flowVersion: data.flowVersion ?? null,
        experimentId: data.experimentId ?? null,
        status: 'running',
        startedAt: data.at,
        ...planned(steps, pendingItemsFor(cacheSlotsOf(steps), data.cacheItemIds)),
      };
    }

    case 'StepsSynced': {
      const steps = inExecutionOrder(event.data.steps);
      const slots = cacheSlotsOf(steps);
      const kept = state.executionCache.filter((item) => slots.some((slot) => isSameSlot(slot, item)));
      const added = pendingItemsFor(
        slots.filter((slot) => !kept.some((item) => isSameSlot(slot, item))),
        event.data.cacheItemIds,
      );
      const cache = slots.map(
        (slot) =>
          kept.find((item) => isSameSlot(slot, item)) ?? added.find((item) => isSameSlot(slot, item))!,
      );
      const reopened = state.status === 'completed' && cache.some((item) => item.status === 'pending');
      return {
        ...state,
        ...planned(steps, cache),
        ...(reopened ? { status: 'running' as const, completedAt: null } : {}),
      };
    }

    case 'ResultsReused': {
      const { data } = event;
      const results: StepResult[] = data.results.map((reused) => ({
        id: reused.resultId,
        executionId: state.id,
        stepId: reused.stepId,
        stepOrder: reused.stepOrder,
        runId: reused.sourceRunId,
        label: reused.label,
        branchName: reused.branchName,
        branchPath: reused.branchPath,
        choiceIndex: reused.choiceIndex,
        loopIteration: reused.loopIteration,
        result: reused.content,
        // Only approved results are reused, and they stay what the flow carries on.
        approved: true,
        createdAt: data.at,
        origin: {
          executionId: data.sourceExecutionId,
          executionStartedAt: data.sourceStartedAt,
          resultId: reused.sourceResultId,
        },
      }));
      const cache = state.executionCache.map((item) =>
        data.stepIds.includes(item.stepId) ? { ...item, status: 'completed' as const } : item,
      );
      return { ...state, ...planned(state.steps, cache), results: [...state.results, ...results] };
    }

    case 'StepRunStarted': {
      const { data } = event;
      return {
        ...state,
        runs: [
          ...state.runs,
          {
            runId: data.runId,
            stepId: data.stepId,
            stepOrder: data.stepOrder,
            cacheItemId: data.cacheItemId,
            loopIteration: data.loopIteration,
            status: 'running',
            startedAt: data.at,
            ...(data.instanceId === undefined ? {} : { instanceId: data.instanceId }),
            // Kept only when there are some, so a run whose prompt used approved results alone stays as it was.
            ...(data.unreviewedResults?.length ? { unreviewedResults: data.unreviewedResults } : {}),
            // The decider writes the default input where the user gave none: that is no one's message.
            ...(data.userInput === DEFAULT_USER_INPUT ? {} : { userInput: data.userInput }),
          },
        ],
      };
    }

    case 'StepRunSucceeded': {
      const { data } = event;
      const at = runIndexOf(state.runs, data.runId);
      const run = state.runs[at];
      if (!run) return state;
      const results: StepResult[] = data.results.map((draft) => ({
        id: draft.resultId,
        executionId: state.id,
        stepId: run.stepId,
        stepOrder: run.stepOrder,
        runId: run.runId,
        label: draft.label,
        branchName: draft.branchName,
        branchPath: draft.branchPath,
        choiceIndex: draft.choiceIndex,
        loopIteration: draft.loopIteration,
        result: draft.content,
        // The model's pick of a choice step is the path taken; the user does not approve it separately.
        approved: draft.choiceIndex !== null,
        createdAt: data.at,
      }));
      const cache = state.executionCache.map((item) =>
        item.id === run.cacheItemId ? { ...item, status: 'completed' as const } : item,
      );
      return {
        ...state,
        ...planned(state.steps, cache),
        runs: state.runs.with(at, { ...run, status: 'succeeded' }),
        results: [...state.results, ...results],
      };
    }

    case 'StepRunFailed': {
      const { runId, message } = event.data;
      const at = runIndexOf(state.runs, runId);
      const run = state.runs[at];
      return run ? { ...state, runs: state.runs.with(at, { ...run, status: 'failed', message }) } : state;
    }

    case 'ResultApproved':
    case 'ResultUnapproved': {
      const approved = event.type === 'ResultApproved';
      return {
        ...state,
        results: state.results.map((r) => (r.id === event.data.resultId ? { ...r, approved } : r)),
      };
    }

    case 'ResultEdited': {
      const { resultId, before, after, label, by, modelText, at } = event.data;
      return {
        ...state,
        results: state.results.map((r) => {
          if (r.id !== resultId) return r;
          // A label alone leaves the text as it was. The model's own text comes with the event itself (as
          // the read model takes it), so an edit's state needs nothing of the edits before it.
          if (after === before) return { ...r, label };
          const edited = { modelText: modelText ?? before, by: by ?? null, at };
          return { ...r, result: after, label, edited };
        }),
      };
    }

    case 'ResultDeleted':
      return { ...state, results: state.results.filter((r) => r.id !== event.data.resultId) };

    case 'ReviewRequested': {
      const { data } = event;
      const review: Review = {
        id: data.reviewId,
        stepId: data.stepId,
        runId: data.runId,
        resultIds: [...data.resultIds],
        by: data.by,
        userIds: [...data.userIds],
        role: data.role,
        approvalsNeeded: data.approvals,
        selfApproval: data.selfApproval,
        requestedBy: data.requestedBy,
        requestedAt: data.at,
        dueAt: data.dueAt,
        onDue: data.onDue,
        note: data.note,
        status: 'pending',
        approvalsGiven: [],
        rejection: null,
        decidedAt: null,
        due: null,
        ownersToo: false,
        ...(data.asksAgain ? { asksAgain: { ...data.asksAgain } } : {}),
      };
      // A review asked for a step of a completed execution opens it again: completed means reviewed.
      const reopened = state.status === 'completed' ? { status: 'running' as const, completedAt: null } : {};
      return { ...state, ...reopened, reviews: [...state.reviews, review] };
    }

    case 'ReviewApproved': {
      const { reviewId, userId, role, comment, texts, at } = event.data;
      const review = state.reviews.find((r) => r.id === reviewId);
      if (review?.status !== 'pending') return state;
      const settles = settledByOwner(review, role);
      if (!settles && review.approvalsGiven.some((a) => a.userId === userId)) return state;
      const approval = { userId, role, comment, at, ...(texts ? { texts } : {}) };
      // An owner settling a review they approved before: their approval now is the one kept.
      const approvalsGiven = [...review.approvalsGiven.filter((a) => a.userId !== userId), approval];
      const approved = settles || approvalsGiven.length >= review.approvalsNeeded;
      const next = withPendingReview(state, reviewId, (r) => ({
        ...r,
        approvalsGiven,
        ...(approved ? { status: 'approved' as const, decidedAt: at } : {}),
      }));
      if (!approved) return next;
      // Results approved after a rejection sent the step back (edited, asked again): its work is done again.
      const run = state.runs.find((r) => r.runId === review.runId);
      if (run?.cacheItemId == null) return next;
      const cache = state.executionCache.map((item) =>
        item.id === run.cacheItemId && item.status === 'pending'
          ? { ...item, status: 'completed' as const }
          : item,
      );
      return { ...next, ...planned(state.steps, cache) };
    }

    case 'ReviewRejected': {
      const { reviewId, userId, role, reason, at } = event.data;
      return backToRunner(state, reviewId, {
        status: 'rejected',
        rejection: { userId, role, reason, at },
        decidedAt: at,
      });
    }

    case 'ReviewDue': {
      const { reviewId, onDue, at } = event.data;
      if (onDue === 'fail')
        return backToRunner(state, reviewId, { status: 'expired', due: { onDue, at }, decidedAt: at });
      return withPendingReview(state, reviewId, (review) => ({
        ...review,
        due: { onDue, at },
        ownersToo: review.ownersToo || onDue === 'escalate',
      }));
    }

    case 'ReviewHandedBack': {
      const { reviewId, userId } = event.data;
      return withPendingReview(state, reviewId, (review) => ({
        ...review,
        userIds: review.userIds.filter((id) => id !== userId),
        ownersToo: true,
      }));
    }

    case 'ReviewSentToOwners': {
      const { reviewId, reason } = event.data;
      return withPendingReview(state, reviewId, (review) => ({
        ...review,
        ownersToo: true,
        ownersReason: reason,
      }));
    }

    case 'ReviewWithdrawn': {
      const { reviewId, at } = event.data;
      return withPendingReview(state, reviewId, (review) => ({
        ...review,
        status: 'withdrawn',
        decidedAt: at,
      }));
    }

    case 'ExecutionStopped':
      return { ...state, status: 'stopped' };

    case 'ExecutionReset':
      // Back to the start with fresh work; results and runs stay, since history is never deleted.
      return {
        ...state,
        status: 'running',
        completedAt: null,
        ...planned(state.steps, pendingItemsFor(cacheSlotsOf(state.steps), event.data.cacheItemIds)),
      };

    case 'ExecutionCompleted':
      return { ...state, status: 'completed', completedAt: event.data.at };

    default: {
      // An event type this code does not know yet (an older browser tab, say) leaves the state as it is.
      const _exhaustive: never = event;
      return state;
    }
  }
}

/** The state with the pending review `reviewId` changed by `change`; a review no longer pending stays as it is. */
function withPendingReview(
  state: ExecutionState,
  reviewId: string,
  change: (review: Review) => Review,
): ExecutionState {
  return {
    ...state,
    reviews: state.reviews.map((r) => (r.id === reviewId && r.status === 'pending' ? change(r) : r)),
  };
}

/**
 * A pending review ends without approval (rejected, or expired at its due time): the step goes back to the
 * runner, and the work its reviewed run completed is to be done again.
 */
function backToRunner(state: ExecutionState, reviewId: string, outcome: Partial<Review>): ExecutionState {
  const review = state.reviews.find((r) => r.id === reviewId);
  if (review?.status !== 'pending') return state;
  const run = state.runs.find((r) => r.runId === review.runId);
  const cache = state.executionCache.map((item) =>
    run?.cacheItemId != null && item.id === run.cacheItemId ? { ...item, status: 'pending' as const } : item,
  );
  return {
    ...withPendingReview(state, reviewId, (r) => ({ ...r, ...outcome })),
    ...planned(state.steps, cache),
  };
}
