import type { Sql, TransactionSql } from 'postgres';
import { DATASET_NOT_FOUND } from '../../domain/dataset/decider';
import type { DatasetItemSource } from '../../domain/dataset/events';
import { notFound } from '../../domain/errors';
import { MAX_DATASETS_PER_FLOW } from '../../domain/limits';
import type { Statement } from '../../eventstore';
import { type Action, heldIn, holderOf, mayInSql, type Role, requireMay, roleInSql } from '../access';
import { isPastLimit, withinLimits } from '../commands/within-limit';
import { type Keyed, keyset, type ListOrder, type Page } from '../http/pages';
import type { FlowHolder } from './dataset-aggregate';

/** A dataset as the lists show it. */
export interface DatasetRow {
  id: string;
  flowId: string;
  name: string;
  /** The dataset's version: its stream's position. */
  version: number;
  createdBy: string;
  createdAt: Date;
  updatedAt: Date;
  itemCount: number;
  archivedCount: number;
}

/** An item as the read model holds it. */
export interface DatasetItemRow {
  id: string;
  inputs: Record<string, string>;
  expected: Record<string, string>;
  tags: string[];
  source: DatasetItemSource;
  sourceExecutionId: string | null;
  archived: boolean;
  addedBy: string;
  addedAt: Date;
  addedInVersion: number;
}

/** A flow's datasets, newest first (the id orders datasets made at the same microsecond). */
export const DATASETS_ORDER: ListOrder = {
  list: 'datasets',
  keys: [
    { sql: 'd.created_at', order: 'desc', type: 'timestamptz' },
    { sql: 'd.id', order: 'desc', type: 'uuid' },
  ],
};

const DATASET_COLUMNS = `d.id, d.flow_id, d.name, d.position::int AS version, d.created_by, d.created_at, d.updated_at,
  (SELECT count(*)::int FROM dataset_items i WHERE i.dataset_id = d.id) AS item_count,
  (SELECT count(*)::int FROM dataset_items i WHERE i.dataset_id = d.id AND i.archived) AS archived_count`;

/** What `DatasetsRepository.withinLimit` raises when a flow's datasets would be past MAX_DATASETS_PER_FLOW. */
const PAST_LIMIT = 'datasets_per_flow';

/** Whether an error is the refusal of `DatasetsRepository.withinLimit`: nothing of the command was stored. */
export const isPastDatasetsLimit = (error: unknown) => isPastLimit(error, PAST_LIMIT);

/**
 * Datasets and their items as the read models hold them, and the rule that a dataset reached through a flow
 * the user may not read is missing (404): the flow's row (where the flow is now) decides.
 */
export class DatasetsRepository {
  constructor(private readonly sql: Sql) {}

  /** The flow's datasets, newest first, to whoever may read the flow (checked by the caller). */
  list(flowId: string, userId: string, page: Page | null): Promise<Keyed<DatasetRow>[]> {
    const { sql } = this;
    const rows = keyset(sql, DATASETS_ORDER, page);
    return sql<Keyed<DatasetRow>[]>`
      SELECT ${sql.unsafe(DATASET_COLUMNS)}, ${rows.pageKey}
      FROM datasets d JOIN flows f ON f.id = d.flow_id
      WHERE d.flow_id = ${flowId} AND ${mayInSql(sql, userId, 'read', 'flow', heldIn('f'))} AND ${rows.after}
      ${rows.orderBy} ${rows.limit}`;
  }

  /** How many datasets the flow has: a new one is checked against MAX_DATASETS_PER_FLOW. */
  async countOf(flowId: string): Promise<number> {
    const [row] = await this.sql<{ count: number }[]>`
      SELECT count(*)::int AS count FROM datasets WHERE flow_id = ${flowId}`;
    return row?.count ?? 0;
  }

  /**
   * The statement that holds a new dataset's flow to MAX_DATASETS_PER_FLOW in the transaction that writes its
   * row (`withinLimits`: the flow's row held, the datasets counted again); past the limit it raises
   * (`isPastDatasetsLimit`), and nothing of the command is stored.
   */
  withinLimit(tx: TransactionSql, flowId: string): Statement {
    return withinLimits(tx, [
      {
        name: PAST_LIMIT,
        parent: { table: 'flows', id: flowId },
        count: (id) => `SELECT count(*) FROM datasets WHERE flow_id = ${id}`,
        limit: MAX_DATASETS_PER_FLOW,
      },
    ]);
  }

  /**
   * The dataset, when the user may do `action` to its flow; otherwise 404 (they may not even read the flow)
   * or 403 (a member of its workspace whose role does not allow `action`).
   */
  async readable(datasetId: string, userId: string, action: Action = 'read'): Promise<DatasetRow> {
    const { sql } = this;
    const [row] = await sql<
      (DatasetRow & { flowUserId: string; workspaceId: string | null; role: Role | null })[]
    >`
      SELECT ${sql.unsafe(DATASET_COLUMNS)}, f.user_id AS flow_user_id, f.workspace_id,
             ${roleInSql(sql, userId, 'f.workspace_id')}
      FROM datasets d JOIN flows f ON f.id = d.flow_id
      WHERE d.id = ${datasetId} AND ${mayInSql(sql, userId, 'read', 'flow', heldIn('f'))}`;
    if (!row) throw notFound(DATASET_NOT_FOUND);
    const { flowUserId, workspaceId, role, ...dataset } = row;
    requireMay(userId, action, 'flow', holderOf(flowUserId, { workspaceId, role }), 'Dataset');
    return dataset;
  }

  /**
   * The dataset's row and its items, oldest first, read at one moment (a change committed between two reads
   * would give items of another version than the row's). Access is the caller's to check first.
   */
  async withItems(datasetId: string): Promise<DatasetRow & { items: DatasetItemRow[] }> {
    return this.sql.begin('isolation level repeatable read read only', async (tx) => {
      const [row] = await tx<DatasetRow[]>`
        SELECT ${tx.unsafe(DATASET_COLUMNS)} FROM datasets d WHERE d.id = ${datasetId}`;
      if (!row) throw notFound(DATASET_NOT_FOUND);
      const items = await tx<DatasetItemRow[]>`
        SELECT id, inputs, expected, tags, source, source_execution_id, archived, added_by, added_at,
               added_in_version::int AS added_in_version
        FROM dataset_items WHERE dataset_id = ${datasetId} ORDER BY added_in_version, place`;
      return { ...row, items };
    }) as Promise<DatasetRow & { items: DatasetItemRow[] }>;
  }

  /**
   * The dataset's flow and the flow's holder as its row has them now, whoever asks (the command handler asks
   * the access rule); 404 when there is no such dataset, or its flow is gone.
   */
  async flowOf(datasetId: string): Promise<{ flowId: string; holder: FlowHolder }> {
    const [row] = await this.sql<{ flowId: string; userId: string; workspaceId: string | null }[]>`
      SELECT d.flow_id, f.user_id, f.workspace_id
      FROM datasets d JOIN flows f ON f.id = d.flow_id WHERE d.id = ${datasetId}`;
    if (!row) throw notFound(DATASET_NOT_FOUND);
    return { flowId: row.flowId, holder: { ownerId: row.userId, workspaceId: row.workspaceId } };
  }
}
