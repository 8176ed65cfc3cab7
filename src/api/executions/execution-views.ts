import type { Sql } from 'postgres';
import { notFound } from '../../domain/errors';
import { MESSAGES } from '../../domain/execution/decide';
import { shownStatus } from '../../domain/execution/queries';
import type { ShownExecutionStatus, StepResult } from '../../domain/execution/types';
import type { ExecutionRow } from '../../projections/execution-row';
import { heldIn, mayInSql } from '../access';
import type { Stored } from '../http/answer-schemas';
import { executionAnswer } from '../http/answer-schemas';
import { type Keyed, keyset, type ListOrder, type Page } from '../http/pages';
import type { ServerInstance } from '../runtime/server-instance';
import { type ExecutionView, readExecutionView, readLatestExecutionView } from './execution-view';
import { ExecutionViewCache, type KeptView } from './execution-view-cache';

type ListedRow = Pick<ExecutionRow, 'id' | 'status' | 'runs' | 'startedAt'>;

/** An execution in a list: its status as lists show it (Running only while a step runs). */
export interface ListedExecution {
  id: string;
  status: ReturnType<typeof shownStatus>;
  startedAt: string;
}

const listedOf = (row: ListedRow): ListedExecution => ({
  id: row.id,
  status: shownStatus(row),
  startedAt: row.startedAt.toISOString(),
});

/** A flow's executions as lists show them: the newest first. */
export const EXECUTIONS_ORDER: ListOrder = {
  list: 'executions',
  keys: [
    { sql: 'started_at', order: 'desc', type: 'timestamptz' },
    { sql: 'id', order: 'asc', type: 'uuid' },
  ],
};

/** A workspace's executions, newest first: the auditor's list. */
export const WORKSPACE_EXECUTIONS_ORDER: ListOrder = {
  list: 'workspace-executions',
  keys: [
    { sql: 'e.started_at', order: 'desc', type: 'timestamptz' },
    { sql: 'e.id', order: 'desc', type: 'uuid' },
  ],
};

/** Which of a workspace's executions to list: of one flow, started by one person, in one status, started in a time span. */
export interface ExecutionFilter {
  flowId?: string | undefined;
  userId?: string | undefined;
  status?: ShownExecutionStatus | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

/** An execution in a workspace's list: what it is of, who started it, where it stands. */
export interface WorkspaceExecution extends ListedExecution {
  flowId: string;
  flowName: string;
  userId: string;
  userName: string;
  completedAt: string | null;
}

/** What GET /api/executions/:id answers: the projected execution, kept as JSON text between its changes. */
export class ExecutionViews {
  private readonly cache = new ExecutionViewCache();

  constructor(
    private readonly sql: Sql,
    private readonly instance: Pick<ServerInstance, 'alone'>,
  ) {}

  view(executionId: string, userId: string): Promise<ExecutionView> {
    return readExecutionView(this.sql, executionId, userId);
  }

  /**
   * The same view as JSON text, kept between changes: what polling asks for again and again. Alone on the
   * database, a kept view is current (every change is this process's own, and drops it at once). With other
   * processes, one of theirs may have committed a moment before their NOTIFY reaches this one: a kept view
   * is answered only once its version is read to be the execution's, so a client that saw a change on one
   * instance never sees an older view on another.
   */
  async viewJson(executionId: string, userId: string): Promise<string> {
    return (await this.keptView(executionId, userId)).body;
  }

  /** The view as JSON text with the stream version it reflects (the execution's ETag), kept as viewJson says. */
  async keptView(executionId: string, userId: string): Promise<KeptView> {
    const kept = this.cache.get(executionId, userId);
    if (kept !== undefined && (this.instance.alone || (await this.isCurrent(executionId, kept.version))))
      return kept;
    const ticket = this.cache.ticket();
    // Through the route's answer schema, as every other answer is serialised: nothing beyond it is sent.
    const view = executionAnswer.parse(await this.view(executionId, userId));
    const body = JSON.stringify(view);
    // Only an owner's own execution is kept for them: who may read a workspace's changes with its members.
    if (view.workspaceId === null)
      this.cache.remember(executionId, userId, ticket, { body, version: view.version });
    return { body, version: view.version };
  }

  private async isCurrent(executionId: string, version: number): Promise<boolean> {
    const [row] = await this.sql<{ position: number }[]>`
      SELECT position FROM executions WHERE id = ${executionId}`;
    return row?.position === version;
  }

  /** The flow's latest execution the user started, or null. */
  latest(flowId: string, userId: string): Promise<ExecutionView | null> {
    return readLatestExecutionView(this.sql, flowId, userId);
  }

  /** The user's executions of the flow as lists show them, the newest first. */
  async listed(flowId: string, userId: string, page: Page | null = null): Promise<Keyed<ListedExecution>[]> {
    const { sql } = this;
    const rows = keyset(sql, EXECUTIONS_ORDER, page);
    const listed = await sql<Keyed<ListedRow>[]>`
      SELECT id, status, runs, started_at, ${rows.pageKey} FROM executions
      WHERE flow_id = ${flowId} AND ${mayInSql(sql, userId, 'read', 'execution', heldIn())} AND ${rows.after}
      ${rows.orderBy} ${rows.limit}`;
    return listed.map((row) => ({ ...listedOf(row), pageKey: row.pageKey }));
  }

  /**
   * The executions of a workspace the user is a member of (the caller has checked), filtered, the newest
   * first: by whom, of which flow (its name as it is now; empty once the flow is deleted).
   */
  async inWorkspace(
    workspaceId: string,
    userId: string,
    filter: ExecutionFilter,
    page: Page,
  ): Promise<Keyed<WorkspaceExecution>[]> {
    const { sql } = this;
    const rows = keyset(sql, WORKSPACE_EXECUTIONS_ORDER, page);
    const { flowId, userId: startedBy, status, from, to } = filter;
    const running = sql`e.runs @> '[{"status": "running"}]'::jsonb`;
    const statusIs =
      status === undefined
        ? sql`TRUE`
        : status === 'running'
          ? sql`e.status = 'running' AND ${running}`
          : status === 'waiting'
            ? sql`e.status = 'running' AND NOT ${running}`
            : sql`e.status = ${status}`;
    const listed = await sql<
      (Keyed<ListedRow> &
        Omit<WorkspaceExecution, 'status' | 'startedAt' | 'completedAt'> & { completedAt: Date | null })[]
    >`
      SELECT e.id, e.status, e.runs, e.started_at, e.completed_at, e.flow_id, e.user_id,
             coalesce(f.name, '') AS flow_name,
             coalesce(nullif(u.first_name, ''), u.email, '') AS user_name, ${rows.pageKey}
      FROM executions e LEFT JOIN flows f ON f.id = e.flow_id LEFT JOIN users u ON u.id = e.user_id
      WHERE e.workspace_id = ${workspaceId} AND ${mayInSql(sql, userId, 'read', 'execution', heldIn('e'))}
        AND ${flowId === undefined ? sql`TRUE` : sql`e.flow_id = ${flowId}`}
        AND ${startedBy === undefined ? sql`TRUE` : sql`e.user_id = ${startedBy}`}
        AND ${statusIs}
        AND ${from === undefined ? sql`TRUE` : sql`e.started_at >= ${from}`}
        AND ${to === undefined ? sql`TRUE` : sql`e.started_at < ${to}`}
        AND ${rows.after}
      ${rows.orderBy} ${rows.limit}`;
    return listed.map((row) => ({
      ...listedOf(row),
      flowId: row.flowId,
      flowName: row.flowName,
      userId: row.userId,
      userName: row.userName,
      completedAt: row.completedAt?.toISOString() ?? null,
      pageKey: row.pageKey,
    }));
  }

  /** The user's executions of the flow that record the flow version they started on, oldest first. */
  async startedWithVersions(
    flowId: string,
    userId: string,
  ): Promise<(ListedExecution & { flowVersion: number })[]> {
    const rows = await this.sql<(ListedRow & { flowVersion: number })[]>`
      SELECT id, status, runs, started_at, flow_version FROM executions
      WHERE flow_id = ${flowId} AND ${mayInSql(this.sql, userId, 'read', 'execution', heldIn())}
        AND flow_version IS NOT NULL
      ORDER BY started_at, id`;
    return rows.map((row) => ({ ...listedOf(row), flowVersion: row.flowVersion }));
  }

  /** The execution a result belongs to, only when the result is the user's (404 otherwise). */
  async executionOfResult(resultId: string, userId: string): Promise<string> {
    const [row] = await this.sql<{ executionId: string }[]>`
      SELECT r.execution_id FROM step_results r JOIN executions e ON e.id = r.execution_id
      WHERE r.id = ${resultId} AND ${mayInSql(this.sql, userId, 'read', 'execution', heldIn('e'))}`;
    if (!row) throw notFound(MESSAGES.resultNotFound);
    return row.executionId;
  }

  /** A result as stored. */
  async result(resultId: string): Promise<Stored<StepResult, 'createdAt'> | undefined> {
    const [result] = await this.sql<Stored<StepResult, 'createdAt'>[]>`
      SELECT * FROM step_results WHERE id = ${resultId}`;
    return result;
  }

  /** An event of the execution was appended (by this process or, through the log tailer, another). */
  changed(executionId: string) {
    this.cache.invalidate(executionId);
  }
}
