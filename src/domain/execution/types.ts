import type { OutputMode, StepSnapshot } from '../flow';
import type { Limits } from '../limits';
import type { OnDue, ReviewRole } from '../step-review';
import type { Role } from '../workspace/events';

export type ExecutionStatus = 'running' | 'stopped' | 'completed' | 'failed';
/**
 * An execution's status as every screen and list shows it: an execution still open is running only while
 * a step of it runs; otherwise it is waiting for the user, however long ago it was left.
 */
export const SHOWN_EXECUTION_STATUSES = ['running', 'waiting', 'stopped', 'completed', 'failed'] as const;
export type ShownExecutionStatus = (typeof SHOWN_EXECUTION_STATUSES)[number];
export type KeySource = 'own' | 'default' | 'offline';

export interface CacheItem {
  id: string;
  stepId: string;
  status: 'pending' | 'completed';
  loopIteration: number;
}

export interface QueueItem {
  stepId: string;
  isCompleted: boolean;
  loopIteration: number;
}

/** A result as the read model and the API show it (the step_results row). */
export interface StepResult {
  id: string;
  executionId: string;
  stepId: string;
  stepOrder: number;
  runId: string;
  label: string | null;
  branchName: string | null;
  branchPath: string | null;
  choiceIndex: number | null;
  loopIteration: number | null;
  result: string;
  approved: boolean;
  createdAt: string;
  /** Only on a result reused from an earlier execution by a re-run from a later step. */
  origin?: ResultOrigin;
  /** Only on a result whose text someone changed after the model wrote it. */
  edited?: ResultEdit;
}

/** A result's text changed by a person: the model's own text, and who changed it last and when. */
export interface ResultEdit {
  modelText: string;
  /** Who edited it last; null on edits recorded before edits named their author. */
  by: string | null;
  at: string;
}

/** Where a reused result came from: the execution, its start, and the result copied. */
export interface ResultOrigin {
  executionId: string;
  executionStartedAt: string;
  resultId: string;
}

/**
 * A result a run's prompt used before anyone approved it: a `[[label]]`, an input source or an earlier loop
 * iteration named a step none of whose results was approved (QuickRun runs on without waiting for review),
 * so the prompt took that step's latest results as they were.
 */
export interface UnreviewedResultUse {
  resultId: string;
  stepId: string;
  stepOrder: number;
  label: string | null;
}

/** A model call in progress or finished, keyed by runId. */
export interface StepRun {
  runId: string;
  stepId: string;
  stepOrder: number;
  cacheItemId: string | null;
  loopIteration: number;
  status: 'running' | 'succeeded' | 'failed';
  startedAt: string;
  /** The server instance making the model call; none on runs recorded before runs named it. */
  instanceId?: number;
  /** The unreviewed results its prompt used; none when absent (so on runs recorded before they were kept). */
  unreviewedResults?: UnreviewedResultUse[];
  /**
   * What the user sent the step (a chat message, run mode's input): chat shows it again after a reload.
   * None when the step ran on the default input.
   */
  userInput?: string;
  message?: string;
}

/** `withdrawn`: the execution was reset while the review waited, so its results are no longer the step's work. */
export const REVIEW_STATUSES = ['pending', 'approved', 'rejected', 'expired', 'withdrawn'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/** One text as a reviewer approved it: its SHA-256 (hex), so what a later step uses can be checked against it. */
export interface ApprovedText {
  resultId: string;
  sha256: string;
}

/** One person's approval of a review. */
export interface ReviewApproval {
  userId: string;
  /** Their role in the execution's workspace when they approved. */
  role: Role | null;
  comment: string | null;
  at: string;
  /** The texts they approved; absent on approvals recorded before texts were kept. */
  texts?: ApprovedText[];
}

/** Why a review went to the workspace's owners although it was not due: too few others could decide it. */
export const OWNERS_REASONS = ['too-few-deciders'] as const;
export type OwnersReason = (typeof OWNERS_REASONS)[number];

/**
 * A step's results waiting for (or decided by) another person than the runner: asked for by the step's
 * review rule when it produced them, or by the runner afterwards.
 */
export interface Review {
  id: string;
  stepId: string;
  /** The run whose results are reviewed; null when the runner asked for review of results of several runs. */
  runId: string | null;
  resultIds: string[];
  by: 'members' | 'role';
  userIds: string[];
  role: ReviewRole | null;
  approvalsNeeded: number;
  selfApproval: boolean;
  requestedBy: string;
  requestedAt: string;
  dueAt: string | null;
  onDue: OnDue | null;
  note: string | null;
  status: ReviewStatus;
  approvalsGiven: ReviewApproval[];
  /** Who rejected it, why and when; null unless rejected. */
  rejection: { userId: string; role: Role | null; reason: string; at: string } | null;
  decidedAt: string | null;
  /** When its due time fired, and what it did; null until then (it fires once). */
  due: { onDue: OnDue; at: string } | null;
  /**
   * Whether the workspace's owners may decide it too: it was escalated at its due time, or a person it named
   * was removed from the workspace.
   */
  ownersToo: boolean;
  /** Why it went to the owners before its due time; absent when it did not. */
  ownersReason?: OwnersReason;
  /** The review this one asks again, after its results changed; absent on a first request. */
  asksAgain?: { reviewId: string; because: 'edited' | 'deleted' };
}

export interface ExecutionState {
  /** False until ExecutionStarted has been applied. */
  exists: boolean;
  id: string;
  userId: string;
  flowId: string;
  /** The workspace its flow was in when it started (its members' roles decide who may see it); null: none. */
  workspaceId: string | null;
  status: ExecutionStatus;
  currentStep: number;
  steps: StepSnapshot[];
  /** The flow version (its stream's position) the execution started from; null: started before flows had versions. */
  flowVersion: number | null;
  /**
   * The experiment whose run it is; null: none. Such an execution keeps the flow version it started from: its
   * steps are never synced with the flow's later versions, since the experiment compares that version.
   */
  experimentId: string | null;
  executionQueue: QueueItem[];
  executionCache: CacheItem[];
  results: StepResult[];
  runs: StepRun[];
  /** The reviews by another person its steps asked for, oldest first. */
  reviews: Review[];
  startedAt: string;
  completedAt: string | null;
}

// ---------------------------------------------------------------------------------------------
// Events: past tense, data only. Times the read models show travel in the data (`at`), so evolve
// needs nothing but the event.

export interface ResultDraft {
  resultId: string;
  label: string;
  branchName: string | null;
  branchPath: string | null;
  choiceIndex: number | null;
  loopIteration: number | null;
  content: string;
}

/** An approved result of an earlier execution, copied into a new one under a new id. */
export interface ReusedResult {
  resultId: string;
  sourceResultId: string;
  /** The run of the earlier execution that produced the text: its request log shows the prompt. */
  sourceRunId: string;
  stepId: string;
  stepOrder: number;
  label: string | null;
  branchName: string | null;
  branchPath: string | null;
  choiceIndex: number | null;
  loopIteration: number | null;
  content: string;
}

export type ExecutionEvent =
  | {
      type: 'ExecutionStarted';
      data: {
        executionId: string;
        userId: string;
        flowId: string;
        steps: StepSnapshot[];
        /** The flow version the steps are of; none on executions started before flows had versions. */
        flowVersion?: number;
        /** The workspace its flow was in; none when the flow was its owner's own. */
        workspaceId?: string;
        /** The experiment whose run it is; none when it is no experiment's. */
        experimentId?: string;
        cacheItemIds: string[];
        at: string;
      };
    }
  | {
      type: 'StepsSynced';
      /** `flowVersion`: the flow version synced to; none on syncs recorded before flows had versions. */
      data: { steps: StepSnapshot[]; flowVersion?: number; cacheItemIds: string[]; at: string };
    }
  | {
      /** A re-run from a later step: the steps before it are done, with the earlier execution's results. */
      type: 'ResultsReused';
      data: {
        sourceExecutionId: string;
        sourceStartedAt: string;
        fromStepId: string;
        /** The steps taken as done: all their work is completed. */
        stepIds: string[];
        results: ReusedResult[];
        at: string;
      };
    }
  | {
      type: 'StepRunStarted';
      data: {
        runId: string;
        stepId: string;
        stepOrder: number;
        loopIteration: number;
        cacheItemId: string | null;
        userInput: string;
        systemPrompt: string;
        finalPrompt: string;
        stepLabels: Record<string, string>;
        unresolvedLabels: string[];
        /** The unreviewed results the prompt used; absent on runs recorded before they were kept: none. */
        unreviewedResults?: UnreviewedResultUse[];
        outputMode: OutputMode;
        choices: string[];
        model: string;
        /** The model's provider (of its `provider:name` id); absent from events recorded before it was kept. */
        provider?: string;
        keySource: KeySource;
        /** The server instance making the model call; absent from events recorded before it was kept. */
        instanceId?: number;
        at: string;
      };
    }
  | {
      type: 'StepRunSucceeded';
      data: {
        runId: string;
        results: ResultDraft[];
        usage: { inputTokens: number; outputTokens: number } | null;
        durationMs: number;
        /** How many times the model was asked again for an answer that fit the step's format (absent: none). */
        reasks?: number;
        /**
         * Milliseconds from sending the request to the answer's first text; null: no text came. Absent from
         * events recorded before it was measured.
         */
        firstTokenMs?: number | null;
        at: string;
      };
    }
  | {
      type: 'StepRunFailed';
      data: {
        runId: string;
        message: string;
        retryable: boolean;
        /** As on StepRunSucceeded, when the call was made: absent when the run ended without one (a crash). */
        firstTokenMs?: number | null;
        /** How many times the model was asked again before the answer was given up (absent: none). */
        reasks?: number;
        at: string;
      };
    }
  | { type: 'ResultApproved'; data: { resultId: string; at: string } }
  | { type: 'ResultUnapproved'; data: { resultId: string; at: string } }
  | {
      type: 'ResultEdited';
      /**
       * `by`: who edited it; absent on edits recorded before edits named their author. `modelText`: the
       * model's own text, when it is not `before` (an edit after an edit); absent: `before` is the model's.
       */
      data: {
        resultId: string;
        before: string;
        after: string;
        label: string;
        by?: string;
        modelText?: string;
        at: string;
      };
    }
  | { type: 'ResultDeleted'; data: { resultId: string; content: string; at: string } }
  | {
      /** A step's results are to be approved by another person than the runner. */
      type: 'ReviewRequested';
      data: {
        reviewId: string;
        stepId: string;
        runId: string | null;
        resultIds: string[];
        by: 'members' | 'role';
        userIds: string[];
        role: ReviewRole | null;
        approvals: number;
        selfApproval: boolean;
        requestedBy: string;
        dueAt: string | null;
        onDue: OnDue | null;
        note: string | null;
        /** The review this one asks again because its results were edited or one deleted: its approvals are void. */
        asksAgain?: { reviewId: string; because: 'edited' | 'deleted' };
        at: string;
      };
    }
  | {
      /** One person's approval; the review is approved once as many distinct people as it needs approved. */
      type: 'ReviewApproved';
      data: {
        reviewId: string;
        userId: string;
        role: Role | null;
        comment: string | null;
        /** The texts approved, each with its SHA-256; absent on approvals recorded before they were kept. */
        texts?: ApprovedText[];
        at: string;
      };
    }
  | {
      /** The step goes back to the runner with the reason: its results are not approved, it can run again. */
      type: 'ReviewRejected';
      data: { reviewId: string; userId: string; role: Role | null; reason: string; at: string };
    }
  | {
      /**
       * The review was still pending at its due time: `remind` reminds who it asks, `escalate` lets the
       * workspace's owners decide it too, `fail` ends it as expired and the step goes back to the runner.
       */
      type: 'ReviewDue';
      data: { reviewId: string; onDue: OnDue; at: string };
    }
  | {
      /** A person the review named left the workspace: the owners may decide it in their place. */
      type: 'ReviewHandedBack';
      data: { reviewId: string; userId: string; at: string };
    }
  | {
      /**
       * Fewer people may decide the review than the approvals it still needs (a rule naming only the runner,
       * a member removed or given another role): the workspace's owners may decide it too.
       */
      type: 'ReviewSentToOwners';
      data: { reviewId: string; reason: OwnersReason; at: string };
    }
  | {
      /** The execution was reset while the review waited: nobody decides it any more. */
      type: 'ReviewWithdrawn';
      data: { reviewId: string; at: string };
    }
  | { type: 'ExecutionStopped'; data: { at: string } }
  | { type: 'ExecutionReset'; data: { cacheItemIds: string[]; at: string } }
  | { type: 'ExecutionCompleted'; data: { at: string } };

export type ExecutionEventType = ExecutionEvent['type'];

// ---------------------------------------------------------------------------------------------
// Commands and what the handler supplies to decide them.

export interface ConversationContext {
  userNotes: string;
  rejectedIdeas: string;
}

export type ExecutionCommand =
  | {
      type: 'StartExecution';
      /** `experimentId`: a run of that experiment, of the flow version the context's steps are of. */
      data: { executionId: string; flowId: string; experimentId?: string };
    }
  | {
      /** A new execution of the flow that reuses the source's approved results of the steps before fromStepId. */
      type: 'StartExecutionFrom';
      data: {
        executionId: string;
        flowId: string;
        fromStepId: string;
        source: ExecutionState;
        experimentId?: string;
      };
    }
  | {
      type: 'StartStepRun';
      data: {
        runId: string;
        stepId: string;
        /** null: the step's first pending cache item, or a new version when none is pending. */
        loopIteration: number | null;
        userInput: string;
        model: string;
        /** The model's provider: recorded only when given. */
        provider?: string | undefined;
        keySource: KeySource;
        /** The server instance that will make the model call: a crash sweep knows its runs by it. */
        instanceId: number;
        conversation: ConversationContext;
      };
    }
  | {
      type: 'CompleteStepRun';
      data: {
        runId: string;
        output: string;
        usage: { inputTokens: number; outputTokens: number } | null;
        durationMs: number;
        reasks?: number | undefined;
        firstTokenMs?: number | null | undefined;
      };
    }
  | {
      type: 'FailStepRun';
      data: {
        runId: string;
        message: string;
        retryable: boolean;
        reasks?: number | undefined;
        firstTokenMs?: number | null | undefined;
      };
    }
  | { type: 'ApproveResult'; data: { resultId: string } }
  | { type: 'UnapproveResult'; data: { resultId: string } }
  | { type: 'EditResult'; data: { resultId: string; result?: string; label?: string } }
  | { type: 'DeleteResult'; data: { resultId: string } }
  | {
      /** The runner asks another person to approve the step's latest results. */
      type: 'RequestReview';
      data: {
        reviewId: string;
        stepId: string;
        userIds?: string[] | undefined;
        role?: ReviewRole | undefined;
        approvals?: number | undefined;
        dueAt?: string | undefined;
        onDue?: OnDue | undefined;
        note?: string | undefined;
      };
    }
  | { type: 'ApproveReview'; data: { reviewId: string; comment?: string | undefined } }
  | { type: 'RejectReview'; data: { reviewId: string; reason: string } }
  /** The review's due time has come (sent by its timer, not by a person). */
  | { type: 'DueReview'; data: { reviewId: string } }
  /** `userId` was removed from the execution's workspace: the pending reviews naming them go to the owners. */
  | { type: 'HandBackReviews'; data: { userId: string } }
  /**
   * The workspace's members changed (a removal, a role): each pending review that fewer people may now decide
   * than it needs goes to the owners. Needs `members` in the context.
   */
  | { type: 'CheckReviewDeciders'; data: Record<string, never> }
  | { type: 'StopExecution'; data: Record<string, never> }
  | { type: 'ResetExecution'; data: Record<string, never> };

export interface DecideContext {
  /** ISO time of the command. */
  now: string;
  /** Fresh uuids (result ids, cache item ids). */
  newId: () => string;
  userId: string;
  /** The flow's current steps, ordered by `order`. */
  steps: StepSnapshot[];
  /** The flow version those steps are of, when the caller read them from the flow. */
  flowVersion?: number | undefined;
  /** The workspace the flow is in, when the caller read it from the flow (a new execution is that workspace's). */
  workspaceId?: string | null | undefined;
  /** How large a prompt or a text may be. */
  limits: Limits;
  /** The actor's role in the execution's workspace, when the caller looked it up (a review's decision needs it). */
  role?: Role | null | undefined;
  /**
   * The execution's workspace's members, when the caller looked them up: whom a review may ask, and whether a
   * review asked for has enough people who may decide it.
   */
  members?: readonly { userId: string; role: Role }[] | undefined;
  /** SHA-256 of a text, hex: what a reviewer approved is recorded by it, and checked by it before use. */
  textHash: (text: string) => string;
}

export const DEFAULT_USER_INPUT = 'Run mode execution - no additional input';
