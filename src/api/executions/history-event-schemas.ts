import { z } from 'zod';
import { type ExecutionEvent, OWNERS_REASONS } from '../../domain/execution/types';
import { OUTPUT_MODES } from '../../domain/flow';
import { ON_DUE, REVIEW_ROLES } from '../../domain/step-review';
import { WORKSPACE_ROLES } from '../../domain/workspace/events';
import { recordId, stepSnapshotAnswer, unreviewedResultUse } from '../http/answer-schemas';

/**
 * The events of an execution's stream as the API shows them (its history): one schema per event type, so a
 * client reads each event's data by its type. They describe the domain's `ExecutionEvent` exactly: the type
 * check at the bottom fails to compile when the two part.
 */

const at = z.string().describe('When it happened (ISO 8601)');

const firstTokenMs = z
  .int()
  .nullable()
  .optional()
  .describe(
    'Milliseconds from sending the request to the first text (null: none came); absent on older runs',
  );

const resultDraft = z.object({
  resultId: recordId,
  label: z.string(),
  branchName: z.string().nullable(),
  branchPath: z.string().nullable(),
  choiceIndex: z.int().nullable(),
  loopIteration: z.int().nullable(),
  content: z.string(),
});

const reusedResult = z.object({
  resultId: recordId,
  sourceResultId: recordId,
  sourceRunId: recordId,
  stepId: recordId,
  stepOrder: z.int(),
  label: z.string().nullable(),
  branchName: z.string().nullable(),
  branchPath: z.string().nullable(),
  choiceIndex: z.int().nullable(),
  loopIteration: z.int().nullable(),
  content: z.string(),
});

const EVENT_DATA = {
  ExecutionStarted: z.object({
    executionId: recordId,
    userId: recordId,
    flowId: recordId,
    steps: z.array(stepSnapshotAnswer),
    flowVersion: z.int().optional().describe('None on executions started before flows had versions'),
    workspaceId: recordId
      .optional()
      .describe("The workspace its flow was in; none when it was its owner's own"),
    experimentId: recordId
      .optional()
      .describe(
        'The experiment whose run it is (its steps stay at its flow version); none when no experiment',
      ),
    cacheItemIds: z.array(recordId),
    at,
  }),
  StepsSynced: z.object({
    steps: z.array(stepSnapshotAnswer),
    flowVersion: z.int().optional(),
    cacheItemIds: z.array(recordId),
    at,
  }),
  ResultsReused: z.object({
    sourceExecutionId: recordId,
    sourceStartedAt: z.string(),
    fromStepId: recordId,
    stepIds: z.array(recordId),
    results: z.array(reusedResult),
    at,
  }),
  StepRunStarted: z.object({
    runId: recordId,
    stepId: recordId,
    stepOrder: z.int(),
    loopIteration: z.int(),
    cacheItemId: recordId.nullable(),
    userInput: z.string(),
    systemPrompt: z.string(),
    finalPrompt: z.string(),
    stepLabels: z.record(z.string(), z.string()),
    unresolvedLabels: z.array(z.string()),
    unreviewedResults: z.array(unreviewedResultUse).optional(),
    outputMode: z.enum(OUTPUT_MODES),
    choices: z.array(z.string()),
    model: z.string(),
    provider: z
      .string()
      .optional()
      .describe("The model's provider; absent on runs recorded before it was kept"),
    keySource: z.enum(['own', 'default', 'offline']),
    instanceId: z.int().optional(),
    at,
  }),
  StepRunSucceeded: z.object({
    runId: recordId,
    results: z.array(resultDraft),
    usage: z.object({ inputTokens: z.int(), outputTokens: z.int() }).nullable(),
    durationMs: z.int(),
    reasks: z.int().optional().describe('Times the model was asked again for an answer that fit the format'),
    firstTokenMs,
    at,
  }),
  StepRunFailed: z.object({
    runId: recordId,
    message: z.string(),
    retryable: z.boolean(),
    reasks: z.int().optional().describe('Times the model was asked again before its answer was given up'),
    firstTokenMs,
    at,
  }),
  ResultApproved: z.object({ resultId: recordId, at }),
  ResultUnapproved: z.object({ resultId: recordId, at }),
  ResultEdited: z.object({
    resultId: recordId,
    before: z.string(),
    after: z.string(),
    label: z.string(),
    by: recordId
      .optional()
      .describe('Who edited it; absent on edits recorded before edits named their author'),
    modelText: z
      .string()
      .optional()
      .describe("The model's own text, when it is not `before` (an edit after an edit)"),
    at,
  }),
  ResultDeleted: z.object({ resultId: recordId, content: z.string(), at }),
  ReviewRequested: z.object({
    reviewId: recordId,
    stepId: recordId,
    runId: recordId.nullable(),
    resultIds: z.array(recordId),
    by: z.enum(['members', 'role']),
    userIds: z.array(recordId),
    role: z.enum(REVIEW_ROLES).nullable(),
    approvals: z.int(),
    selfApproval: z.boolean(),
    requestedBy: recordId,
    dueAt: z.string().nullable(),
    onDue: z.enum(ON_DUE).nullable(),
    note: z.string().nullable(),
    asksAgain: z
      .object({ reviewId: recordId, because: z.enum(['edited', 'deleted']) })
      .optional()
      .describe('The review this one asks again because its results changed; its approvals are void'),
    at,
  }),
  ReviewApproved: z.object({
    reviewId: recordId,
    userId: recordId,
    role: z.enum(WORKSPACE_ROLES).nullable(),
    comment: z.string().nullable(),
    texts: z
      .array(z.object({ resultId: recordId, sha256: z.string() }))
      .optional()
      .describe('The texts approved, each with its SHA-256 (hex)'),
    at,
  }),
  ReviewRejected: z.object({
    reviewId: recordId,
    userId: recordId,
    role: z.enum(WORKSPACE_ROLES).nullable(),
    reason: z.string(),
    at,
  }),
  ReviewDue: z.object({ reviewId: recordId, onDue: z.enum(ON_DUE), at }),
  ReviewHandedBack: z.object({ reviewId: recordId, userId: recordId, at }),
  ReviewSentToOwners: z.object({ reviewId: recordId, reason: z.enum(OWNERS_REASONS), at }),
  ReviewWithdrawn: z.object({ reviewId: recordId, at }),
  ExecutionStopped: z.object({ at }),
  ExecutionReset: z.object({ cacheItemIds: z.array(recordId), at }),
  ExecutionCompleted: z.object({ at }),
} as const;

type EventData = typeof EVENT_DATA;
const eventOf = <Type extends keyof EventData>(type: Type) =>
  z.object({ type: z.literal(type), data: EVENT_DATA[type] });
// Each type named, so that the union keeps each type with its own data.
const eventSchemas = [
  eventOf('ExecutionStarted'),
  eventOf('StepsSynced'),
  eventOf('ResultsReused'),
  eventOf('StepRunStarted'),
  eventOf('StepRunSucceeded'),
  eventOf('StepRunFailed'),
  eventOf('ResultApproved'),
  eventOf('ResultUnapproved'),
  eventOf('ResultEdited'),
  eventOf('ResultDeleted'),
  eventOf('ReviewRequested'),
  eventOf('ReviewApproved'),
  eventOf('ReviewRejected'),
  eventOf('ReviewDue'),
  eventOf('ReviewHandedBack'),
  eventOf('ReviewSentToOwners'),
  eventOf('ReviewWithdrawn'),
  eventOf('ExecutionStopped'),
  eventOf('ExecutionReset'),
  eventOf('ExecutionCompleted'),
] as const;

/** An execution's event: its type and the data of that type. */
export const executionEventSchema = z.discriminatedUnion('type', eventSchemas);

/** Who caused an event: the user and the name the navigation bar shows for them. */
const actor = z.object({ userId: recordId.nullable(), name: z.string().nullable() });

/** What the log adds to an event: its place in the stream, its time and who caused it. */
const recorded = {
  position: z.int().describe("The event's position in the execution's stream, from 1"),
  at: z.string(),
  actor,
  commandId: z.string().nullable().describe('The request that caused it (its Idempotency-Key, if sent)'),
};

/** An event of an execution's history, with its place in the stream and who caused it. */
export const historyEventSchema = z
  .discriminatedUnion(
    'type',
    eventSchemas.map((event) => event.extend(recorded)) as unknown as [z.ZodObject, ...z.ZodObject[]],
  )
  .meta({ id: 'HistoryEvent' });

// The schemas describe the domain's events exactly: this fails to compile when either side changes alone.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameAsTheDomain: Same<z.output<typeof executionEventSchema>, ExecutionEvent> = true;
void sameAsTheDomain;

/**
 * An event of the history that cannot be read: its stored type is not an execution event's, or its data is not
 * that type's shape (it was rewritten outside the app). It is shown as stored, and no state is folded from it.
 */
export const unreadableHistoryEventSchema = z
  .object({
    readable: z.literal(false).describe('Always false: the event could not be read'),
    type: z.string().describe('The type as stored'),
    raw: z.unknown().describe('The data as stored'),
    ...recorded,
  })
  .meta({ id: 'UnreadableHistoryEvent' });
