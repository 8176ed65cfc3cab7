import type { JSONValue, TransactionSql } from 'postgres';
import { MASTER_STREAM_PREFIX, type MasterEvent } from '../domain/master-mode/master-events';
import type { ProjectableEvent } from './project-execution-events';

const toMasterEvent = (recorded: Pick<ProjectableEvent, 'type' | 'data'>) =>
  ({ type: recorded.type, data: recorded.data }) as MasterEvent;

/**
 * Writes the read models of master mode streams' events: `master_mode_runs` (one row per row run) and,
 * for a successful ai run made without an own key, a `user_usage` row, so master mode spends the same
 * free allowance as flows. Rows remember their stream position; replaying the same events changes nothing.
 */
export async function projectMasterStreams(
  sql: TransactionSql,
  streams: ProjectableEvent[][],
): Promise<void> {
  const statements = streams
    .filter((events) => events[0]?.streamId.startsWith(MASTER_STREAM_PREFIX))
    .flatMap((events) => events.flatMap((recorded) => writesOf(sql, recorded)));
  await Promise.all(statements);
}

function writesOf(sql: TransactionSql, recorded: ProjectableEvent): PromiseLike<unknown>[] {
  const event = toMasterEvent(recorded);
  const position = recorded.streamPosition;
  switch (event.type) {
    case 'MasterRowRunStarted': {
      const d = event.data;
      return [
        sql`
        INSERT INTO master_mode_runs ${sql({
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
          rowReferences: sql.json(d.references as JSONValue),
          unresolvedReferences: sql.json(d.unresolvedReferences),
          model: d.model,
          keySource: d.keySource,
          requestedAt: d.at,
          position,
        } as Record<string, unknown>)}
        ON CONFLICT (id) DO NOTHING`,
      ];
    }
    case 'MasterRowRunSucceeded': {
      const d = event.data;
      return [
        sql`
        UPDATE master_mode_runs SET result = ${d.result}, success = true, duration_ms = ${d.durationMs},
          position = ${position}
        WHERE id = ${d.runId} AND position < ${position}`,
        sql`
        INSERT INTO user_usage (id, user_id, execution_id, step_id, used_default_key, execution_date)
        SELECT r.id, r.user_id, NULL, r.step_id, r.key_source <> 'own', ${d.at}::timestamptz
        FROM master_mode_runs r WHERE r.id = ${d.runId} AND r.step_type = 'ai'
        ON CONFLICT (id) DO NOTHING`,
      ];
    }
    case 'MasterRowRunFailed':
      return [
        sql`
        UPDATE master_mode_runs SET success = false, error_message = ${event.data.message},
          position = ${position}
        WHERE id = ${event.data.runId} AND position < ${position}`,
      ];
    case 'MasterExecuteAllStarted':
    case 'MasterExecuteAllStopped':
    case 'MasterExecuteAllEnded':
    case 'MasterResultsReset':
      return [];
    default: {
      const unknown: never = event;
      throw new Error(`Unknown master mode event ${(unknown as { type: string }).type}`);
    }
  }
}
