import type { TransactionSql } from 'postgres';
import { decider } from '../domain/execution/decider';
import { runIndexOf } from '../domain/execution/queries';
import { EXECUTION_STREAM_PREFIX } from '../domain/execution/stream';
import type { ExecutionEvent, ExecutionState, StepRun } from '../domain/execution/types';
import type { Statement } from '../eventstore';
import { type ExecutionRow, stateOfRow } from './execution-row';
import { rejectedIdeaChange } from './project-rejected-idea';
import { changeStatement, JsonColumn, type ReadModelChange, type RunsChange } from './read-model-change';

/** The part of a recorded event the projectors read. */
export interface ProjectableEvent {
  eventId: string;
  streamId: string;
  streamPosition: number;
  type: string;
  data: unknown;
}

export const toExecutionEvent = (recorded: Pick<ProjectableEvent, 'type' | 'data'>) =>
  ({ type: recorded.type, data: recorded.data }) as ExecutionEvent;

export { EXECUTION_STREAM_PREFIX, executionStreamId } from '../domain/execution/stream';

/** An execution as it stood before the events: its state and the stream position it reflects. */
export interface ExecutionBefore {
  state: ExecutionState;
  version: number;
}

/**
 * The statements that write the read models of one execution stream's new events, inside the append
 * transaction: each change a statement, built at once and sent pipelined. Each row remembers the stream
 * position it reflects and ignores older events, so applying the same events twice changes nothing, but for
 * the executions row (below).
 *
 * `before` spares reading the execution's row: a command appended at the version it loaded, so its row
 * (projected in every append's transaction) reflects that version and holds that state. The results the
 * state may carry change nothing: the row's state has none, and a projector only looks up results the
 * events themselves add. The row's change names that version, and fails the transaction when the row is
 * elsewhere (isExecutionRowElsewhere): the command is then written again with `whole`, the row written
 * from the state over whatever is there.
 */
export function executionStatements(
  sql: TransactionSql,
  events: ProjectableEvent[],
  before: ExecutionBefore,
  whole = false,
): Statement[] {
  const streamId = events[0]?.streamId;
  if (!streamId?.startsWith(EXECUTION_STREAM_PREFIX)) return [];
  const changes = changesOf(streamId.slice(EXECUTION_STREAM_PREFIX.length), before, events, whole);
  return changes.map((change) => changeStatement(sql, change));
}

/** Writes the read models of one execution stream's events, continuing from what its row reflects. */
export async function projectExecutionEvents(sql: TransactionSql, events: ProjectableEvent[]): Promise<void> {
  const changes = await executionStreamsChanges(sql, [events]);
  await Promise.all(changes.map((change) => changeStatement(sql, change)));
}

/**
 * The read-model changes of events of many execution streams (other streams are skipped), each stream's in
 * its order, from one read of their execution rows: a stream continues from the position its row reflects.
 */
export async function executionStreamsChanges(
  sql: TransactionSql,
  streams: ProjectableEvent[][],
): Promise<ReadModelChange[]> {
  const executionStreams = streams.filter((events) =>
    events[0]?.streamId.startsWith(EXECUTION_STREAM_PREFIX),
  );
  if (executionStreams.length === 0) return [];
  const ids = executionStreams.map(executionIdOf);
  const rows = await sql<ExecutionRow[]>`SELECT * FROM executions WHERE id = ANY(${ids}::uuid[])`;
  const rowOf = new Map(rows.map((row) => [row.id, row]));
  return executionStreams.flatMap((events, i) => {
    const row = rowOf.get(ids[i]!);
    const before = row ? { state: stateOfRow(row), version: row.position } : fromTheStart();
    return changesOf(ids[i]!, before, events);
  });
}

/**
 * The read-model changes of execution streams given from their first event (a rebuild's): no row of theirs
 * can exist yet, so none is read.
 */
export function begunExecutionStreamsChanges(streams: ProjectableEvent[][]): ReadModelChange[] {
  return streams.flatMap((events) => changesOf(executionIdOf(events), fromTheStart(), events));
}

const executionIdOf = (events: ProjectableEvent[]) =>
  events[0]!.streamId.slice(EXECUTION_STREAM_PREFIX.length);

const fromTheStart = (): ExecutionBefore => ({ state: decider.initialState(), version: 0 });

/**
 * The read-model changes of an execution's events after `before` (events at or before its position are
 * skipped): the rows their results, runs and reviews add or change, then its executions row. `whole`: the
 * row is written whole over whatever row is there, not changed from `before`.
 */
export function changesOf(
  executionId: string,
  before: ExecutionBefore,
  events: ProjectableEvent[],
  whole = false,
): ReadModelChange[] {
  let { state, version: position } = before;
  const changes: ReadModelChange[] = [];
  for (const recorded of events) {
    if (recorded.streamPosition <= position) continue;
    const event = toExecutionEvent(recorded);
    state = decider.evolve(state, event);
    position = recorded.streamPosition;
    changes.push(...resultAndLogChanges(executionId, event, recorded, state));
  }
  if (!state.exists || position === before.version) return changes;
  const columns = {
    status: state.status,
    currentStep: state.currentStep,
    executionQueue: new JsonColumn(state.executionQueue),
    executionCache: new JsonColumn(state.executionCache),
    steps: new JsonColumn(state.steps),
    reviews: new JsonColumn(state.reviews),
    completedAt: state.completedAt,
  };
  if (!whole && before.version > 0 && before.state.exists && state.runs.length >= before.state.runs.length) {
    // The row holds the state as of `before`: its runs change by the runs these events add or change, not
    // written whole (an execution's runs grow with every step run, the rest of the row does not).
    changes.push({
      type: 'executionChanged',
      id: executionId,
      from: before.version,
      set: columns,
      runs: runsChange(before.state.runs, state.runs),
      position,
    });
    return changes;
  }
  changes.push({
    type: 'execution',
    row: {
      id: executionId,
      userId: state.userId,
      flowId: state.flowId,
      workspaceId: state.workspaceId,
      flowVersion: state.flowVersion,
      experimentId: state.experimentId,
      runs: new JsonColumn(state.runs),
      startedAt: state.startedAt,
      ...columns,
      position,
    },
    ...(whole ? { over: true as const } : {}),
  });
  return changes;
}

/**
 * How the runs went from `before` to `after`: evolve only adds runs at the end or replaces one (its status),
 * so the runs after the old ones are added, and an old one that is not the same object was replaced.
 */
export function runsChange(before: StepRun[], after: StepRun[]): RunsChange {
  const replaced: RunsChange['replaced'] = [];
  const kept = Math.min(before.length, after.length);
  for (let index = 0; index < kept; index++) {
    if (after[index] !== before[index]) replaced.push({ index, run: after[index]! });
  }
  return { replaced, appended: after.slice(before.length) };
}

function resultAndLogChanges(
  executionId: string,
  event: ExecutionEvent,
  recorded: ProjectableEvent,
  after: ExecutionState,
): ReadModelChange[] {
  const position = recorded.streamPosition;
  switch (event.type) {
    case 'StepRunStarted': {
      const d = event.data;
      return [
        {
          type: 'insert',
          table: 'ai_request_logs',
          row: {
            id: d.runId,
            userId: after.userId,
            flowId: after.flowId,
            executionId,
            stepId: d.stepId,
            stepOrder: d.stepOrder,
            startedEventId: recorded.eventId,
            originalSystemPrompt: d.systemPrompt,
            finalPrompt: d.finalPrompt,
            userInput: d.userInput,
            outputMode: d.outputMode,
            choices: new JsonColumn(d.choices),
            stepLabels: new JsonColumn(d.stepLabels),
            unresolvedLabels: new JsonColumn(d.unresolvedLabels),
            unreviewedResults: new JsonColumn(d.unreviewedResults ?? []),
            model: d.model,
            provider: d.provider ?? null,
            keySource: d.keySource,
            requestedAt: d.at,
            position,
          },
        },
      ];
    }
    case 'StepRunSucceeded': {
      const d = event.data;
      const run = after.runs[runIndexOf(after.runs, d.runId)];
      if (!run) return [];
      const results = d.results.map(
        (result, runIndex): ReadModelChange => ({
          type: 'insert',
          table: 'step_results',
          row: {
            id: result.resultId,
            executionId,
            stepId: run.stepId,
            stepOrder: run.stepOrder,
            runId: d.runId,
            runIndex,
            label: result.label,
            branchName: result.branchName,
            branchPath: result.branchPath,
            choiceIndex: result.choiceIndex,
            loopIteration: result.loopIteration,
            result: result.content,
            approved: after.results.findLast((r) => r.id === result.resultId)?.approved ?? false,
            createdAt: d.at,
            position,
          },
        }),
      );
      const answer = d.results.map((r) => (d.results.length > 1 ? `${r.label}:\n${r.content}` : r.content));
      return [
        ...results,
        {
          type: 'update',
          table: 'ai_request_logs',
          id: d.runId,
          set: {
            aiResponse: answer.join('\n\n'),
            success: true,
            reasks: d.reasks ?? 0,
            inputTokens: d.usage?.inputTokens ?? null,
            outputTokens: d.usage?.outputTokens ?? null,
            firstTokenMs: d.firstTokenMs ?? null,
          },
          position,
        },
        {
          type: 'flowUsage',
          row: { id: d.runId, userId: after.userId, executionId, stepId: run.stepId, executionDate: d.at },
        },
      ];
    }
    case 'ResultsReused': {
      const d = event.data;
      return d.results.map(
        (result, runIndex): ReadModelChange => ({
          type: 'insert',
          table: 'step_results',
          row: {
            id: result.resultId,
            executionId,
            stepId: result.stepId,
            stepOrder: result.stepOrder,
            runId: result.sourceRunId,
            runIndex,
            label: result.label,
            branchName: result.branchName,
            branchPath: result.branchPath,
            choiceIndex: result.choiceIndex,
            loopIteration: result.loopIteration,
            result: result.content,
            approved: after.results.findLast((r) => r.id === result.resultId)?.approved ?? true,
            createdAt: d.at,
            sourceExecutionId: d.sourceExecutionId,
            sourceExecutionStartedAt: d.sourceStartedAt,
            sourceResultId: result.sourceResultId,
            position,
          },
        }),
      );
    }
    case 'StepRunFailed':
      return [
        {
          type: 'update',
          table: 'ai_request_logs',
          id: event.data.runId,
          set: {
            success: false,
            errorMessage: event.data.message,
            reasks: event.data.reasks ?? 0,
            firstTokenMs: event.data.firstTokenMs ?? null,
          },
          position,
        },
      ];
    case 'ResultApproved':
    case 'ResultUnapproved':
      return [
        {
          type: 'update',
          table: 'step_results',
          id: event.data.resultId,
          set: { approved: event.type === 'ResultApproved' },
          position,
        },
      ];
    case 'ResultEdited': {
      const { data } = event;
      // From the event alone, as evolve takes it: this projector's state may hold no results.
      const edited =
        data.after === data.before
          ? null
          : { modelText: data.modelText ?? data.before, by: data.by ?? null, at: data.at };
      return [
        {
          type: 'update',
          table: 'step_results',
          id: event.data.resultId,
          set: {
            result: event.data.after,
            label: event.data.label,
            ...(edited ? { modelText: edited.modelText, editedBy: edited.by, editedAt: edited.at } : {}),
          },
          position,
        },
      ];
    }
    case 'ResultDeleted':
      return [rejectedIdeaChange(executionId, event, after, position)];
    case 'ReviewRequested': {
      const d = event.data;
      const review = after.reviews.find((r) => r.id === d.reviewId);
      if (!review) return [];
      return [
        {
          type: 'insert',
          table: 'step_reviews',
          row: {
            id: d.reviewId,
            executionId,
            flowId: after.flowId,
            workspaceId: after.workspaceId,
            stepId: d.stepId,
            stepName: after.steps.find((s) => s.id === d.stepId)?.name ?? '',
            runId: d.runId,
            requestedBy: d.requestedBy,
            requestedAt: d.at,
            dueAt: d.dueAt,
            by: d.by,
            userIds: new JsonColumn(d.userIds),
            role: d.role,
            approvalsNeeded: d.approvals,
            selfApproval: d.selfApproval,
            approvalsGiven: new JsonColumn([]),
            status: 'pending',
            decidedAt: null,
            ownersToo: false,
            position,
          },
        },
      ];
    }
    case 'ReviewApproved':
    case 'ReviewRejected':
    case 'ReviewDue':
    case 'ReviewHandedBack':
    case 'ReviewSentToOwners':
    case 'ReviewWithdrawn': {
      const review = after.reviews.find((r) => r.id === event.data.reviewId);
      if (!review) return [];
      return [
        {
          type: 'update',
          table: 'step_reviews',
          id: review.id,
          set: {
            userIds: new JsonColumn(review.userIds),
            approvalsGiven: new JsonColumn(review.approvalsGiven),
            status: review.status,
            decidedAt: review.decidedAt,
            ownersToo: review.ownersToo,
            ownersReason: review.ownersReason ?? null,
          },
          position,
        },
      ];
    }
    case 'ExecutionStarted':
    case 'StepsSynced':
    case 'ExecutionStopped':
    case 'ExecutionReset':
    case 'ExecutionCompleted':
      return [];
    default: {
      const unknown: never = event;
      throw new Error(`No projection for ${(unknown as { type: string }).type}`);
    }
  }
}
