import type { TransactionSql } from 'postgres';
import { DATASET_STREAM_PREFIX, type DatasetEvent } from '../domain/dataset/events';
import type { Statement } from '../eventstore';
import type { ProjectableEvent } from './project-execution-events';

export const toDatasetEvent = (recorded: Pick<ProjectableEvent, 'type' | 'data'>) =>
  ({ type: recorded.type, data: recorded.data }) as DatasetEvent;

/**
 * The statements that write `datasets` and `dataset_items` from a dataset stream's events, one or two per
 * event, in the stream's order: the same statements for a command's append and for a rebuild.
 */
export function datasetStatements(sql: TransactionSql, events: ProjectableEvent[]): Statement[] {
  const streamId = events[0]?.streamId;
  if (!streamId?.startsWith(DATASET_STREAM_PREFIX)) return [];
  const datasetId = streamId.slice(DATASET_STREAM_PREFIX.length);
  return events.flatMap((recorded) => {
    const event = toDatasetEvent(recorded);
    const position = recorded.streamPosition;
    const { at } = event.data;
    const touched = () => sql`
      UPDATE datasets SET updated_at = ${at}, position = ${position} WHERE id = ${datasetId}`;
    switch (event.type) {
      case 'DatasetCreated': {
        const { flowId, workspaceId, name, createdBy } = event.data;
        return [
          sql`
            INSERT INTO datasets (id, flow_id, workspace_id, name, created_by, created_at, updated_at, position)
            VALUES (${datasetId}, ${flowId}, ${workspaceId}, ${name}, ${createdBy}, ${at}, ${at}, ${position})
            ON CONFLICT (id) DO UPDATE SET flow_id = excluded.flow_id, workspace_id = excluded.workspace_id,
              name = excluded.name, created_by = excluded.created_by, created_at = excluded.created_at,
              updated_at = excluded.updated_at, position = excluded.position`,
        ];
      }
      case 'DatasetRenamed':
        return [
          sql`
            UPDATE datasets SET name = ${event.data.after}, updated_at = ${at}, position = ${position}
            WHERE id = ${datasetId}`,
        ];
      case 'DatasetItemsAdded': {
        const { items, by } = event.data;
        if (items.length === 0) return [touched()];
        const rows = items.map((item, place) => ({
          id: item.itemId,
          datasetId,
          addedInVersion: position,
          place,
          inputs: sql.json(item.inputs),
          expected: sql.json(item.expected),
          tags: sql.array(item.tags, 25),
          source: item.source,
          sourceExecutionId: item.sourceExecutionId ?? null,
          addedBy: by,
          addedAt: at,
          archived: false,
        }));
        return [sql`INSERT INTO dataset_items ${sql(rows)} ON CONFLICT (id) DO NOTHING`, touched()];
      }
      case 'DatasetItemArchived':
      case 'DatasetItemRestored':
        return [
          sql`
            UPDATE dataset_items SET archived = ${event.type === 'DatasetItemArchived'}
            WHERE id = ${event.data.itemId} AND dataset_id = ${datasetId}`,
          touched(),
        ];
      default:
        // An event type this version does not know writes nothing.
        return [];
    }
  });
}

/** A rebuild batch's dataset streams, each as its statements, in order. */
export function datasetStreamsStatements(sql: TransactionSql, streams: ProjectableEvent[][]): Statement[] {
  return streams.flatMap((events) => datasetStatements(sql, events));
}
