import type { TransactionSql } from 'postgres';
import { EXPERIMENT_STREAM_PREFIX, type ExperimentEvent } from '../domain/experiment/events';
import type { Statement } from '../eventstore';
import type { ProjectableEvent } from './project-execution-events';

export const toExperimentEvent = (recorded: Pick<ProjectableEvent, 'type' | 'data'>) =>
  ({ type: recorded.type, data: recorded.data }) as ExperimentEvent;

/**
 * The statements that write `experiments` from an experiment stream's events, at most one per event, in the
 * stream's order: the same statements for a command's append and for a rebuild. Runs and scores stay on the
 * stream; the row keeps what the lists show.
 */
export function experimentStatements(sql: TransactionSql, events: ProjectableEvent[]): Statement[] {
  const streamId = events[0]?.streamId;
  if (!streamId?.startsWith(EXPERIMENT_STREAM_PREFIX)) return [];
  const experimentId = streamId.slice(EXPERIMENT_STREAM_PREFIX.length);
  return events.flatMap((recorded) => {
    const event = toExperimentEvent(recorded);
    const position = recorded.streamPosition;
    const { at } = event.data;
    switch (event.type) {
      case 'ExperimentStarted': {
        const { data } = event;
        return [
          sql`
            INSERT INTO experiments (id, flow_id, flow_version, workspace_id, dataset_id, dataset_version,
              baseline_id, runs_total, runs_finished, started_by, started_at, updated_at, position)
            VALUES (${experimentId}, ${data.flowId}, ${data.flowVersion}, ${data.workspaceId}, ${data.datasetId},
              ${data.datasetVersion}, ${data.baselineId}, ${data.runs.length}, 0, ${data.startedBy}, ${at}, ${at},
              ${position})
            ON CONFLICT (id) DO UPDATE SET flow_id = excluded.flow_id, flow_version = excluded.flow_version,
              workspace_id = excluded.workspace_id, dataset_id = excluded.dataset_id,
              dataset_version = excluded.dataset_version, baseline_id = excluded.baseline_id,
              runs_total = excluded.runs_total, runs_finished = 0, started_by = excluded.started_by,
              started_at = excluded.started_at, stopped_at = NULL, completed_at = NULL, promoted_at = NULL,
              updated_at = excluded.updated_at, position = excluded.position`,
        ];
      }
      case 'ExperimentRunFinished':
        return [
          sql`
            UPDATE experiments SET runs_finished = runs_finished + 1, updated_at = ${at}, position = ${position}
            WHERE id = ${experimentId}`,
        ];
      case 'ExperimentStopped':
        return [
          sql`
            UPDATE experiments SET stopped_at = ${at}, updated_at = ${at}, position = ${position}
            WHERE id = ${experimentId}`,
        ];
      case 'ExperimentCompleted':
        return [
          sql`
            UPDATE experiments SET completed_at = ${at}, updated_at = ${at}, position = ${position}
            WHERE id = ${experimentId}`,
        ];
      case 'BaselinePromoted':
        return [
          sql`
            UPDATE experiments SET promoted_at = ${at}, updated_at = ${at}, position = ${position}
            WHERE id = ${experimentId}`,
        ];
      default:
        return [
          sql`
            UPDATE experiments SET updated_at = ${at}, position = ${position} WHERE id = ${experimentId}`,
        ];
    }
  });
}

/** A rebuild batch's experiment streams, each as its statements, in order. */
export function experimentStreamsStatements(sql: TransactionSql, streams: ProjectableEvent[][]): Statement[] {
  return streams.flatMap((events) => experimentStatements(sql, events));
}
