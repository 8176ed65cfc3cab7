import type { JSONValue, TransactionSql } from 'postgres';
import { evolve, initialState } from '../domain/execution/evolve';
import type { ExecutionEvent, ExecutionState } from '../domain/execution/types';
import { type ExecutionRow, stateOfRow } from './execution-row';
import { rejectedIdeaWrite } from './project-rejected-idea';

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

/** Domain values are plain JSON data; postgres.js's JSONValue type cannot see that through interfaces. */
const asJson = (sql: TransactionSql, value: unknown) => sql.json(value as JSONValue);

export const EXECUTION_STREAM_PREFIX = 'execution-';
export const executionStreamId = (executionId: string) => `${EXECUTION_STREAM_PREFIX}${executionId}`;

/** A statement sent but not awaited yet: a transaction's statements travel pipelined, in order. */
type Statement = PromiseLike<unknown>;

/**
 * Writes the read models of one execution stream's new events, inside the append transaction. Each row
 * remembers the stream position it reflects and ignores older events, so applying the same events twice
 * changes nothing.
 */
export async function projectExecutionEvents(sql: TransactionSql, events: ProjectableEvent[]): Promise<void> {
  await projectStreams(sql, [events]);
}

/**
 * The same for events of many streams at once (a rebuild batch): one read of their execution rows, then
 * every write pipelined, each stream's in its order.
 */
export async function projectStreams(sql: TransactionSql, streams: ProjectableEvent[][]): Promise<void> {
  const executionStreams = streams.filter((events) =>
    events[0]?.streamId.startsWith(EXECUTION_STREAM_PREFIX),
  );
  if (executionStreams.length === 0) return;
  const ids = executionStreams.map((events) => events[0]!.streamId.slice(EXECUTION_STREAM_PREFIX.length));
  const rows = await sql<ExecutionRow[]>`SELECT * FROM executions WHERE id = ANY(${ids}::uuid[])`;
  const rowOf = new Map(rows.map((row) => [row.id, row]));
  const statements = executionStreams.flatMap((events, i) =>
    writesOf(sql, ids[i]!, rowOf.get(ids[i]!), events),
  );
  await Promise.all(statements);
}

function writesOf(
  sql: TransactionSql,
  executionId: string,
  row: ExecutionRow | undefined,
  events: ProjectableEvent[],
): Statement[] {
  let state: ExecutionState = row ? stateOfRow(row) : initialState();
  let position = row?.position ?? 0;
  const statements: Statement[] = [];
  for (const recorded of events) {
    if (recorded.streamPosition <= position) continue;
    const event = toExecutionEvent(recorded);
    state = evolve(state, event);
    position = recorded.streamPosition;
    statements.push(...resultAndLogWrites(sql, executionId, event, recorded, state));
  }
  if (!state.exists || position === (row?.position ?? 0)) return statements;
  statements.push(sql`
    INSERT INTO executions ${sql({
      id: executionId,
      userId: state.userId,
      flowId: state.flowId,
      status: state.status,
      currentStep: state.currentStep,
      executionQueue: asJson(sql, state.executionQueue),
      executionCache: asJson(sql, state.executionCache),
      steps: asJson(sql, state.steps),
      runs: asJson(sql, state.runs),
      startedAt: state.startedAt,
      completedAt: state.completedAt,
      position,
    } as Record<string, unknown>)}
    ON CONFLICT (id) DO UPDATE SET
      status = excluded.status, current_step = excluded.current_step,
      execution_queue = excluded.execution_queue, execution_cache = excluded.execution_cache,
      steps = excluded.steps, runs = excluded.runs, completed_at = excluded.completed_at,
      position = excluded.position
    WHERE executions.position < excluded.position`);
  return statements;
}

function resultAndLogWrites(
  sql: TransactionSql,
  executionId: string,
  event: ExecutionEvent,
  recorded: ProjectableEvent,
  after: ExecutionState,
): Statement[] {
  const position = recorded.streamPosition;
  switch (event.type) {
    case 'StepRunStarted': {
      const d = event.data;
      return [
        sql`
        INSERT INTO ai_request_logs ${sql({
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
          choices: asJson(sql, d.choices),
          stepLabels: asJson(sql, d.stepLabels),
          unresolvedLabels: asJson(sql, d.unresolvedLabels),
          model: d.model,
          keySource: d.keySource,
          requestedAt: d.at,
          position,
        } as Record<string, unknown>)}
        ON CONFLICT (id) DO NOTHING`,
      ];
    }
    case 'StepRunSucceeded': {
      const d = event.data;
      const run = after.runs.find((r) => r.runId === d.runId);
      if (!run) return [];
      const results = d.results.map(
        (result, runIndex) => sql`
          INSERT INTO step_results ${sql({
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
            approved: after.results.find((r) => r.id === result.resultId)?.approved ?? false,
            createdAt: d.at,
            position,
          } as Record<string, unknown>)}
          ON CONFLICT (id) DO NOTHING`,
      );
      const answer = d.results.map((r) => (d.results.length > 1 ? `${r.label}:\n${r.content}` : r.content));
      return [
        ...results,
        sql`
          UPDATE ai_request_logs SET ai_response = ${answer.join('\n\n')}, success = true, position = ${position}
          WHERE id = ${d.runId} AND position < ${position}`,
        // Whether the run used the default key is on its request log (the key source of StepRunStarted).
        sql`
          INSERT INTO user_usage (id, user_id, execution_id, step_id, used_default_key, execution_date)
          SELECT ${d.runId}::uuid, ${after.userId}::uuid, ${executionId}::uuid, ${run.stepId}::uuid,
            COALESCE((SELECT key_source <> 'own' FROM ai_request_logs WHERE id = ${d.runId}), true),
            ${d.at}::timestamptz
          ON CONFLICT (id) DO NOTHING`,
      ];
    }
    case 'ResultsReused': {
      const d = event.data;
      return d.results.map(
        (result, runIndex) => sql`
          INSERT INTO step_results ${sql({
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
            approved: after.results.find((r) => r.id === result.resultId)?.approved ?? true,
            createdAt: d.at,
            sourceExecutionId: d.sourceExecutionId,
            sourceExecutionStartedAt: d.sourceStartedAt,
            sourceResultId: result.sourceResultId,
            position,
          } as Record<string, unknown>)}
          ON CONFLICT (id) DO NOTHING`,
      );
    }
    case 'StepRunFailed':
      return [
        sql`
        UPDATE ai_request_logs SET success = false, error_message = ${event.data.message}, position = ${position}
        WHERE id = ${event.data.runId} AND position < ${position}`,
      ];
    case 'ResultApproved':
    case 'ResultUnapproved':
      return [
        sql`
        UPDATE step_results SET approved = ${event.type === 'ResultApproved'}, position = ${position}
        WHERE id = ${event.data.resultId} AND position < ${position}`,
      ];
    case 'ResultEdited':
      return [
        sql`
        UPDATE step_results SET result = ${event.data.after}, label = ${event.data.label}, position = ${position}
        WHERE id = ${event.data.resultId} AND position < ${position}`,
      ];
    case 'ResultDeleted':
      return [rejectedIdeaWrite(sql, executionId, event, after, position)];
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
