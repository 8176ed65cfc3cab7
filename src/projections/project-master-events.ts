import type { TransactionSql } from 'postgres';
import { MASTER_STREAM_PREFIX, type MasterEvent } from '../domain/master-mode/events';
import type { Statement } from '../eventstore';
import type { ProjectableEvent } from './project-execution-events';
import { changeStatement, JsonColumn, type ReadModelChange } from './read-model-change';

const toMasterEvent = (recorded: Pick<ProjectableEvent, 'type' | 'data'>) =>
  ({ type: recorded.type, data: recorded.data }) as MasterEvent;

/**
 * Writes the read models of master mode streams' events: `master_mode_runs` (one row per row run),
 * `master_mode_execute_alls` (one row per Execute All) and,
 * for a successful ai run made without an own key, a `user_usage` row, so master mode spends the same
 * free allowance as flows. Rows remember their stream position; replaying the same events changes nothing.
 */
export function masterStatements(sql: TransactionSql, streams: ProjectableEvent[][]): Statement[] {
  return masterStreamsChanges(streams).map((change) => changeStatement(sql, change));
}

/** The read-model changes of master mode streams' events (other streams are skipped), each stream's in order. */
export function masterStreamsChanges(streams: ProjectableEvent[][]): ReadModelChange[] {
  return streams
    .filter((events) => events[0]?.streamId.startsWith(MASTER_STREAM_PREFIX))
    .flatMap((events) => events.flatMap((recorded) => changesOf(recorded)));
}

function changesOf(recorded: ProjectableEvent): ReadModelChange[] {
  const event = toMasterEvent(recorded);
  const position = recorded.streamPosition;
  switch (event.type) {
    case 'MasterRowRunStarted': {
      const d = event.data;
      return [
        {
          type: 'insert',
          table: 'master_mode_runs',
          row: {
            id: d.runId,
            userId: d.userId,
            sessionId: d.sessionId,
            stepId: d.stepId,
            rowNumber: d.rowNumber,
            stepName: d.stepName,
            stepType: d.stepType,
            systemPrompt: d.systemPrompt,
            userInput: d.userInput,
            finalPrompt: d.finalPrompt,
            rowReferences: new JsonColumn(d.references),
            unresolvedReferences: new JsonColumn(d.unresolvedReferences),
            model: d.model,
            provider: d.provider ?? null,
            keySource: d.keySource,
            instanceId: d.instanceId ?? null,
            requestedAt: d.at,
            position,
          },
        },
      ];
    }
    case 'MasterRowRunSucceeded': {
      const d = event.data;
      return [
        {
          type: 'update',
          table: 'master_mode_runs',
          id: d.runId,
          set: {
            result: d.result,
            success: true,
            durationMs: d.durationMs,
            inputTokens: d.usage?.inputTokens ?? null,
            outputTokens: d.usage?.outputTokens ?? null,
            firstTokenMs: d.firstTokenMs ?? null,
          },
          position,
        },
        { type: 'masterUsage', runId: d.runId, at: d.at },
      ];
    }
    case 'MasterRowRunFailed':
      return [
        {
          type: 'update',
          table: 'master_mode_runs',
          id: event.data.runId,
          set: {
            success: false,
            errorMessage: event.data.message,
            firstTokenMs: event.data.firstTokenMs ?? null,
          },
          position,
        },
      ];
    case 'MasterExecuteAllStarted':
      return [
        {
          type: 'insert',
          table: 'master_mode_execute_alls',
          row: {
            id: event.data.runAllId,
            sessionId: recorded.streamId.slice(MASTER_STREAM_PREFIX.length),
            startedAt: event.data.at,
            instanceId: event.data.instanceId ?? null,
            position,
          },
        },
      ];
    case 'MasterExecuteAllStopped':
      return [
        {
          type: 'update',
          table: 'master_mode_execute_alls',
          id: event.data.runAllId,
          set: { stopRequested: true },
          position,
        },
      ];
    case 'MasterExecuteAllEnded': {
      const { runAllId, at, outcome, message } = event.data;
      return [
        {
          type: 'update',
          table: 'master_mode_execute_alls',
          id: runAllId,
          set: { endedAt: at, outcome, message },
          position,
        },
      ];
    }
    case 'MasterSessionOpened':
    case 'MasterSessionDeleted':
    case 'MasterResultsReset':
      return [];
    default: {
      const unknown: never = event;
      throw new Error(`Unknown master mode event ${(unknown as { type: string }).type}`);
    }
  }
}
