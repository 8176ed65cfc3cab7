import { z } from 'zod';
import {
  type ExecutionState,
  OWNERS_REASONS,
  REVIEW_STATUSES,
  SHOWN_EXECUTION_STATUSES,
} from '../../domain/execution/types';
import { OUTPUT_MODES, type StepSnapshot } from '../../domain/flow';
import { ON_DUE, REVIEW_BY, REVIEW_ROLES } from '../../domain/step-review';
import { WORKSPACE_ROLES } from '../../domain/workspace/events';
import type { ExecutionView } from '../executions/execution-view';

/**
 * The shapes the API answers with, shared by several routes. An answer is serialised through its schema, so
 * a column a query returns beyond these never reaches the client. Rows hold times as Dates (written as ISO
 * text); the execution state holds them as ISO text already.
 */

export const recordId = z.string().meta({ format: 'uuid' });

/** A time: a row's Date, or ISO text already; either is written as ISO text. */
export const storedAt = z
  .custom<Date | string>((value) => value instanceof Date || typeof value === 'string')
  .meta({ type: 'string', format: 'date-time' });

/**
 * Texts by a name a user chose (a step's label in a request's log): passed on as they are. zod's record
 * builds a new object and leaves out a key named `__proto__`, which is a label like any other here.
 */
export const textsByName = z
  .custom<Record<string, string>>(
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      Object.values(value).every((text) => typeof text === 'string'),
  )
  .meta({ type: 'object', additionalProperties: { type: 'string' } });

/** A 204: the call answers no content. */
export const noContent = z.undefined().describe('No content');

export const flowAnswer = z
  .object({
    id: recordId,
    userId: recordId,
    workspaceId: recordId.nullable().describe("The workspace the flow is in; null: its owner's own"),
    name: z.string(),
    description: z.string(),
    status: z.string().describe('active, draft or inactive (flows saved before the rule may hold another)'),
    isTemplate: z.boolean(),
    createdAt: storedAt,
    updatedAt: storedAt,
  })
  .meta({ id: 'Flow' });

/** Who approves a step's results. */
export const stepReviewAnswer = z
  .object({
    by: z.enum(REVIEW_BY),
    userIds: z.array(recordId).optional(),
    role: z.enum(REVIEW_ROLES).optional(),
    approvals: z.int(),
    selfApproval: z.boolean(),
    dueInHours: z.int().optional(),
    onDue: z.enum(ON_DUE).optional(),
  })
  .meta({ id: 'StepReview' });

const stepFields = {
  id: recordId,
  order: z.int(),
  name: z.string(),
  systemPrompt: z.string(),
  outputMode: z.enum(OUTPUT_MODES),
  inputSources: z.array(recordId),
  choices: z.array(z.string()),
  loopTargetStepId: recordId.nullable(),
  maxLoopIterations: z.int(),
  requiresUserInput: z.boolean(),
  /** Who approves its results; none or null: the person who ran it. */
  review: stepReviewAnswer.nullable().optional(),
  /** The model that answers it (`provider:name`); none or null: the server's default. */
  model: z.string().nullable().optional(),
};

/** A step as an execution runs it: what the flow's step was when the execution started or synced. */
export const stepSnapshotAnswer = z
  .object(stepFields)
  .meta({ id: 'StepSnapshot' }) satisfies z.ZodType<StepSnapshot>;

export const stepAnswer = z
  .object({
    ...stepFields,
    flowId: recordId,
    currentLoopIteration: z.int(),
    createdAt: storedAt,
  })
  .meta({ id: 'Step' });

const queueItem = z.object({ stepId: recordId, isCompleted: z.boolean(), loopIteration: z.int() });
const cacheItem = z.object({
  id: recordId,
  stepId: recordId,
  status: z.enum(['pending', 'completed']),
  loopIteration: z.int(),
});

export const stepResultAnswer = z
  .object({
    id: recordId,
    executionId: recordId,
    stepId: recordId,
    stepOrder: z.int(),
    runId: recordId,
    label: z.string().nullable(),
    branchName: z.string().nullable(),
    branchPath: z.string().nullable(),
    choiceIndex: z.int().nullable(),
    loopIteration: z.int().nullable(),
    result: z.string(),
    approved: z.boolean(),
    createdAt: z.string(),
    /** Only on a result reused from an earlier execution by a re-run from a later step. */
    origin: z
      .object({ executionId: recordId, executionStartedAt: z.string(), resultId: recordId })
      .optional(),
    edited: z
      .object({
        modelText: z.string().describe("The model's own text"),
        by: recordId
          .nullable()
          .describe('Who edited it last; null on edits recorded before edits named their author'),
        at: z.string(),
      })
      .optional()
      .describe('Only on a result whose text someone changed after the model wrote it'),
  })
  .meta({ id: 'StepResult' });

/** A result a run's prompt used that nobody had approved. */
export const unreviewedResultUse = z
  .object({
    resultId: recordId,
    stepId: recordId,
    stepOrder: z.int(),
    label: z.string().nullable(),
  })
  .meta({ id: 'UnreviewedResultUse' });

export const stepRunAnswer = z
  .object({
    runId: recordId,
    stepId: recordId,
    stepOrder: z.int(),
    cacheItemId: recordId.nullable(),
    loopIteration: z.int(),
    status: z.enum(['running', 'succeeded', 'failed']),
    startedAt: z.string(),
    /** The server instance that made the model call; none on runs recorded before it was kept. */
    instanceId: z.int().optional(),
    /** The unreviewed results its prompt used; absent when none. */
    unreviewedResults: z.array(unreviewedResultUse).optional(),
    /** What the user sent the step; none on a run of the default input, or projected before it was kept. */
    userInput: z.string().optional(),
    message: z.string().optional(),
  })
  .meta({ id: 'StepRun' });

/** One person's approval of a review: who, in which role, with what comment, when. */
export const approvalAnswer = z
  .object({
    userId: recordId,
    role: z.enum(WORKSPACE_ROLES).nullable(),
    comment: z.string().nullable(),
    at: z.string(),
    texts: z
      .array(z.object({ resultId: recordId, sha256: z.string() }))
      .optional()
      .describe('The texts this person approved, each with its SHA-256 (hex)'),
  })
  .meta({ id: 'ReviewApproval' });

/** A step's results waiting for (or decided by) another person than the runner. */
export const reviewAnswer = z
  .object({
    id: recordId,
    stepId: recordId,
    runId: recordId.nullable(),
    resultIds: z.array(recordId),
    status: z.enum(REVIEW_STATUSES),
    by: z.enum(['members', 'role']),
    userIds: z.array(recordId),
    role: z.enum(REVIEW_ROLES).nullable(),
    approvalsNeeded: z.int(),
    selfApproval: z.boolean(),
    approvalsGiven: z.array(approvalAnswer),
    rejection: z
      .object({
        userId: recordId,
        role: z.enum(WORKSPACE_ROLES).nullable(),
        reason: z.string(),
        at: z.string(),
      })
      .nullable(),
    requestedBy: recordId,
    requestedAt: z.string(),
    dueAt: z.string().nullable(),
    onDue: z.enum(ON_DUE).nullable(),
    note: z.string().nullable(),
    decidedAt: z.string().nullable(),
    due: z
      .object({ onDue: z.enum(ON_DUE), at: z.string() })
      .nullable()
      .describe('When its due time fired and what it did (remind, escalate, fail); null until then'),
    ownersReason: z
      .enum(OWNERS_REASONS)
      .optional()
      .describe('Why it went to the owners before its due time: fewer people may decide it than it needs'),
    asksAgain: z
      .object({ reviewId: recordId, because: z.enum(['edited', 'deleted']) })
      .optional()
      .describe('The review this one asks again because its results were edited or one deleted'),
    results: z
      .array(
        z.object({
          resultId: recordId,
          text: z.string(),
          modelText: z.string().describe("The model's own text; the same as text unless someone edited it"),
          editedBy: z.object({ userId: recordId, name: z.string() }).nullable(),
          editedAt: z.string().nullable(),
        }),
      )
      .optional()
      .describe('Its results as they stand now, each with what changed since the model wrote it'),
    ownersToo: z
      .boolean()
      .describe("Whether the workspace's owners may decide it too (escalated, or a named person left)"),
  })
  .meta({ id: 'Review' });

/** An execution as the lists name it, with the status its own view shows. */
export const listedExecution = z
  .object({
    id: recordId,
    status: z.enum(SHOWN_EXECUTION_STATUSES),
    startedAt: z.string(),
  })
  .meta({ id: 'ListedExecution' });

export const executionStateAnswer = z.object({
  exists: z.boolean(),
  id: recordId,
  userId: recordId,
  flowId: recordId,
  /** The workspace its flow was in when it started; null: the flow was its owner's own. */
  workspaceId: recordId.nullable(),
  status: z.enum(['running', 'stopped', 'completed', 'failed']),
  currentStep: z.int(),
  steps: z.array(stepSnapshotAnswer),
  /** The flow version the execution started from; null: started before flows had versions. */
  flowVersion: z.int().nullable(),
  /** The experiment whose run it is (its steps stay at its flow version); null: none. */
  experimentId: recordId.nullable(),
  executionQueue: z.array(queueItem),
  executionCache: z.array(cacheItem),
  results: z.array(stepResultAnswer),
  runs: z.array(stepRunAnswer),
  /** The reviews by another person its steps asked for, oldest first. */
  reviews: z.array(reviewAnswer),
  startedAt: z.string(),
  completedAt: z.string().nullable(),
}) satisfies z.ZodType<ExecutionState>;

/** GET /api/executions/:id: the execution with its results and the stream position it reflects. */
export const executionAnswer = executionStateAnswer
  .extend({
    version: z.int(),
  })
  .meta({ id: 'Execution' }) satisfies z.ZodType<ExecutionView>;

/** A step run's answer: the execution as the run left it, and the run's results. */
export const stepRunOutcomeAnswer = z
  .object({ execution: executionAnswer, results: z.array(stepResultAnswer) })
  .meta({ id: 'StepRunOutcome' });

/**
 * A step run's answer with `Prefer: return=minimal`: the run's results and where the execution stands, with
 * none of its earlier results and runs (a client that follows its events has them already).
 */
export const stepRunSummaryAnswer = z
  .object({
    executionId: recordId,
    version: z.int().describe('The stream position the execution is at after the run'),
    status: executionStateAnswer.shape.status,
    currentStep: z.int(),
    results: z.array(stepResultAnswer),
  })
  .meta({ id: 'StepRunSummary' });

/** A record as its row is read: the named times are Dates until they are serialised. */
export type Stored<T, Times extends keyof T> = Omit<T, Times> & { [Time in Times]: Date };
