import type { Sql, TransactionSql } from 'postgres';
import { notFound } from '../../domain/errors';
import { EXPERIMENT_MESSAGES } from '../../domain/experiment/decider';
import { MAX_EXPERIMENTS_PER_FLOW, MAX_RUNNING_EXPERIMENTS_PER_USER } from '../../domain/limits';
import type { Statement } from '../../eventstore';
import { type Action, heldIn, holderOf, mayInSql, type Role, requireMay, roleInSql } from '../access';
import { isPastLimit, withinLimits } from '../commands/within-limit';
import type { FlowHolder } from '../datasets';
import { type Keyed, keyset, type ListOrder, type Page } from '../http/pages';

/** An experiment as the lists show it. */
export interface ExperimentRow {
  id: string;
  flowId: string;
  flowVersion: number;
  datasetId: string;
  datasetVersion: number;
  baselineId: string | null;
  runsTotal: number;
  runsFinished: number;
  startedBy: string;
  startedAt: Date;
  stoppedAt: Date | null;
  completedAt: Date | null;
  promotedAt: Date | null;
  updatedAt: Date;
  /** Its stream's version. */
  version: number;
}

/** A flow's experiments, newest first. */
export const EXPERIMENTS_ORDER: ListOrder = {
  list: 'experiments',
  keys: [
    { sql: 'x.started_at', order: 'desc', type: 'timestamptz' },
    { sql: 'x.id', order: 'desc', type: 'uuid' },
  ],
};

const COLUMNS = `x.id, x.flow_id, x.flow_version, x.dataset_id, x.dataset_version, x.baseline_id, x.runs_total,
  x.runs_finished, x.started_by, x.started_at, x.stopped_at, x.completed_at, x.promoted_at, x.updated_at,
  x.position::int AS version`;

/** What `ExperimentsRepository.withinLimits` raises past each limit. */
const PAST_LIMIT = { ofFlow: 'experiments_per_flow', running: 'running_experiments_per_user' } as const;

/** Which limit of `ExperimentsRepository.withinLimits` an error is the refusal of, if any: nothing was stored. */
export const pastExperimentsLimit = (error: unknown): keyof typeof PAST_LIMIT | null =>
  isPastLimit(error, PAST_LIMIT.ofFlow)
    ? 'ofFlow'
    : isPastLimit(error, PAST_LIMIT.running)
      ? 'running'
      : null;

/** An experiment running: neither completed nor stopped (a stop ends its runs' executions at once). */
const RUNNING = 'completed_at IS NULL AND stopped_at IS NULL';

/**
 * Experiments as the read model holds them, and the rule that an experiment reached through a flow the user
 * may not read is missing (404): the flow's row (where the flow is now) decides, as for datasets.
 */
export class ExperimentsRepository {
  constructor(private readonly sql: Sql) {}

  /** The flow's experiments, newest first, to whoever may read the flow (checked by the caller). */
  list(flowId: string, userId: string, page: Page | null): Promise<Keyed<ExperimentRow>[]> {
    const { sql } = this;
    const rows = keyset(sql, EXPERIMENTS_ORDER, page);
    return sql<Keyed<ExperimentRow>[]>`
      SELECT ${sql.unsafe(COLUMNS)}, ${rows.pageKey}
      FROM experiments x JOIN flows f ON f.id = x.flow_id
      WHERE x.flow_id = ${flowId} AND ${mayInSql(sql, userId, 'read', 'flow', heldIn('f'))} AND ${rows.after}
      ${rows.orderBy} ${rows.limit}`;
  }

  /** How many experiments the flow has, and how many the user started that are running. */
  async countsOf(flowId: string, userId: string): Promise<{ ofFlow: number; running: number }> {
    const [row] = await this.sql<{ ofFlow: number; running: number }[]>`
      SELECT (SELECT count(*)::int FROM experiments WHERE flow_id = ${flowId}) AS of_flow,
             (SELECT count(*)::int FROM experiments WHERE started_by = ${userId} AND ${this.sql.unsafe(RUNNING)})
               AS running`;
    return row ?? { ofFlow: 0, running: 0 };
  }

  /**
   * The statement that holds a new experiment to MAX_EXPERIMENTS_PER_FLOW and its starter to
   * MAX_RUNNING_EXPERIMENTS_PER_USER in the transaction that writes its row (`withinLimits`: the flow's row and
   * the user's held, the experiments counted again); past one it raises (`pastExperimentsLimit`).
   */
  withinLimits(tx: TransactionSql, flowId: string, userId: string): Statement {
    return withinLimits(tx, [
      {
        name: PAST_LIMIT.ofFlow,
        parent: { table: 'flows', id: flowId },
        count: (id) => `SELECT count(*) FROM experiments WHERE flow_id = ${id}`,
        limit: MAX_EXPERIMENTS_PER_FLOW,
      },
      {
        name: PAST_LIMIT.running,
        parent: { table: 'users', id: userId },
        count: (id) => `SELECT count(*) FROM experiments WHERE started_by = ${id} AND ${RUNNING}`,
        limit: MAX_RUNNING_EXPERIMENTS_PER_USER,
      },
    ]);
  }

  /** The flow's latest experiment of each of its versions, newest version first. */
  latestPerVersion(flowId: string): Promise<ExperimentRow[]> {
    const { sql } = this;
    return sql<ExperimentRow[]>`
      SELECT DISTINCT ON (x.flow_version) ${sql.unsafe(COLUMNS)}
      FROM experiments x WHERE x.flow_id = ${flowId}
      ORDER BY x.flow_version DESC, x.started_at DESC, x.id DESC`;
  }

  /** The experiment promoted last of the flow's: its baseline; null when none was. */
  async baselineOf(flowId: string): Promise<string | null> {
    const [row] = await this.sql<{ id: string }[]>`
      SELECT id FROM experiments WHERE flow_id = ${flowId} AND promoted_at IS NOT NULL
      ORDER BY promoted_at DESC, id DESC LIMIT 1`;
    return row?.id ?? null;
  }

  /**
   * The experiment, when the user may do `action` to its flow; otherwise 404 (they may not even read the
   * flow) or 403 (a member of its workspace whose role does not allow `action`). With its flow's holder.
   */
  async readable(
    experimentId: string,
    userId: string,
    action: Action = 'read',
  ): Promise<ExperimentRow & { holder: FlowHolder }> {
    const { sql } = this;
    const [row] = await sql<
      (ExperimentRow & { flowUserId: string; flowWorkspaceId: string | null; role: Role | null })[]
    >`
      SELECT ${sql.unsafe(COLUMNS)}, f.user_id AS flow_user_id, f.workspace_id AS flow_workspace_id,
             ${roleInSql(sql, userId, 'f.workspace_id')}
      FROM experiments x JOIN flows f ON f.id = x.flow_id
      WHERE x.id = ${experimentId} AND ${mayInSql(sql, userId, 'read', 'flow', heldIn('f'))}`;
    if (!row) throw notFound(EXPERIMENT_MESSAGES.notFound);
    const { flowUserId, flowWorkspaceId, role, ...experiment } = row;
    requireMay(
      userId,
      action,
      'flow',
      holderOf(flowUserId, { workspaceId: flowWorkspaceId, role }),
      'Experiment',
    );
    return { ...experiment, holder: { ownerId: flowUserId, workspaceId: flowWorkspaceId } };
  }

  /** The experiment's flow's holder as the flow's row has it now, whoever asks (the server's own reads). */
  async holderOf(experimentId: string): Promise<FlowHolder> {
    const [row] = await this.sql<{ userId: string; workspaceId: string | null }[]>`
      SELECT f.user_id, f.workspace_id FROM experiments x JOIN flows f ON f.id = x.flow_id
      WHERE x.id = ${experimentId}`;
    if (!row) throw notFound(EXPERIMENT_MESSAGES.notFound);
    return { ownerId: row.userId, workspaceId: row.workspaceId };
  }

  /**
   * Whether the one who started the experiment may still run its flow (where the flow is now): its runs are
   * driven as them. null: no such experiment.
   */
  async starterMayRun(experimentId: string): Promise<boolean | null> {
    const { sql } = this;
    const [starter] = await sql<{ startedBy: string }[]>`
      SELECT started_by FROM experiments WHERE id = ${experimentId}`;
    if (!starter) return null;
    const [row] = await sql<{ may: boolean }[]>`
      SELECT ${mayInSql(sql, starter.startedBy, 'run', 'flow', heldIn('f'))} AS may
      FROM experiments x JOIN flows f ON f.id = x.flow_id WHERE x.id = ${experimentId}`;
    return row?.may ?? null;
  }

  /** The experiments whose runs may still need a driver: neither completed nor stopped with all runs ended. */
  async unfinished(): Promise<{ id: string; flowId: string; startedBy: string; holder: FlowHolder }[]> {
    const rows = await this.sql<
      { id: string; flowId: string; startedBy: string; userId: string; workspaceId: string | null }[]
    >`
      SELECT x.id, x.flow_id, x.started_by, f.user_id, f.workspace_id
      FROM experiments x JOIN flows f ON f.id = x.flow_id
      WHERE x.completed_at IS NULL AND x.runs_finished < x.runs_total`;
    return rows.map(({ userId, workspaceId, ...row }) => ({
      ...row,
      holder: { ownerId: userId, workspaceId },
    }));
  }

  /** The experiment whose run the execution is, when it is one's. */
  async ofExecution(executionId: string): Promise<string | null> {
    const [row] = await this.sql<{ experimentId: string | null }[]>`
      SELECT experiment_id FROM executions WHERE id = ${executionId}`;
    return row?.experimentId ?? null;
  }
}
