import type { Sql } from 'postgres';
import { notFound } from '../../domain/errors';
import type { Flow, Step, StepSnapshot } from '../../domain/flow';
import { FLOW_NOT_FOUND, STEP_NOT_FOUND } from '../../domain/flow/decider';
import type { FlowState, VersionedStep } from '../../domain/flow/events';
import { type Action, heldIn, holderOf, mayInSql, type Role, requireMay, roleInSql } from '../access';
import type { Loaded } from '../commands/command-handler';
import { type Keyed, keyset, type ListOrder, type Page } from '../http/pages';

/** A flow as its row holds it: times are Dates until they are serialised. */
export type FlowRow = Omit<Flow, 'createdAt' | 'updatedAt'> & {
  createdAt: Date;
  updatedAt: Date;
  /** The flow's stream position the row reflects: its version, and its ETag. */
  version: number;
  /** "Clear logs" hides the request logs up to this time. */
  logsClearedAt: Date | null;
  /** The workspace the flow is in; null: its owner's own. */
  workspaceId: string | null;
};

export type StepRow = Omit<Step, 'createdAt'> & { createdAt: Date };

/** A flow's steps as an execution runs them, and the flow version they are of. */
export interface StepsToRun {
  steps: StepSnapshot[];
  version: number;
  /** The workspace the flow is in (its runs are that workspace's); null: its owner's own. */
  workspaceId: string | null;
}

/** A row of the flows list (GET /api/flows). */
export interface FlowListRow {
  id: string;
  name: string;
  description: string;
  status: string;
  createdAt: Date;
  updatedAt: Date;
  stepCount: number;
  lastRun: Date | null;
  userId: string;
  reviewRules: boolean;
}

/** The flows list's order: newest first (the id orders flows made at the same microsecond). */
export const FLOWS_ORDER: ListOrder = {
  list: 'flows',
  keys: [
    { sql: 'f.created_at', order: 'desc', type: 'timestamptz' },
    { sql: 'f.id', order: 'desc', type: 'uuid' },
  ],
};

const FLOW_COLUMNS =
  'id, user_id, workspace_id, name, description, status, is_template, logs_cleared_at, created_at, updated_at, version';
/** The flow's holder as `requireMay` takes it, from a row read with the actor's role (`roleInSql`). */
const holderOfRow = (row: { userId: string; workspaceId: string | null; role: Role | null }) =>
  holderOf(row.userId, row);
/** What an execution knows of a step: every column but the flow's bookkeeping. */
const SNAPSHOT_FIELDS = [
  'id',
  '"order"',
  'name',
  'system_prompt',
  'output_mode',
  'input_sources',
  'choices',
  'loop_target_step_id',
  'max_loop_iterations',
  'requires_user_input',
  'review',
  'model',
];
const STEP_FIELDS = [...SNAPSHOT_FIELDS, 'flow_id', 'current_loop_iteration', 'created_at'];
const columnsOf = (fields: string[], table?: string) =>
  fields.map((field) => (table ? `${table}.${field}` : field)).join(', ');
const STEP_COLUMNS = columnsOf(STEP_FIELDS);

/**
 * Flows and their steps: every read and write of the flows and steps tables, and the rule that a flow or
 * step reached through another user's id is missing (404), never shown.
 */
export class FlowsRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * The user's own flows (no workspace given), or the flows of a workspace the user is a member of, newest
   * first, with their step count and the time of their latest step run.
   */
  list(
    userId: string,
    page: Page | null = null,
    workspaceId: string | null = null,
  ): Promise<Keyed<FlowListRow>[]> {
    const { sql } = this;
    const rows = keyset(sql, FLOWS_ORDER, page);
    const where =
      workspaceId === null
        ? // The user's own flows are theirs by definition: named so, a page is a range of flows_own_list_idx.
          sql`f.workspace_id IS NULL AND f.user_id = ${userId} AND ${mayInSql(sql, userId, 'read', 'flow', heldIn('f'))}`
        : sql`f.workspace_id = ${workspaceId} AND ${mayInSql(sql, userId, 'read', 'flow', heldIn('f'))}`;
    return sql<Keyed<FlowListRow>[]>`
      SELECT f.id, f.name, f.description, f.status, f.created_at, f.updated_at, f.user_id,
             (SELECT count(*)::int FROM steps s WHERE s.flow_id = f.id) AS step_count,
             EXISTS (SELECT 1 FROM steps s WHERE s.flow_id = f.id AND jsonb_typeof(s.review) = 'object')
               AS review_rules,
             (SELECT max(l.requested_at) FROM ai_request_logs l WHERE l.flow_id = f.id) AS last_run,
             ${rows.pageKey}
      FROM flows f WHERE ${where} AND ${rows.after}
      ${rows.orderBy} ${rows.limit}`;
  }

  /**
   * The flow, when the user may act on it so; otherwise 404 (they may not even read it) or 403 (a member
   * of its workspace whose role does not allow `action`).
   */
  async owned(flowId: string, userId: string, action: Action = 'read'): Promise<FlowRow> {
    const { sql } = this;
    const [flow] = await sql<(FlowRow & { role: Role | null })[]>`
      SELECT ${sql.unsafe(columnsOf(FLOW_COLUMNS.split(', '), 'f'))}, ${roleInSql(sql, userId, 'f.workspace_id')}
      FROM flows f WHERE f.id = ${flowId} AND ${mayInSql(sql, userId, 'read', 'flow', heldIn('f'))}`;
    if (!flow) throw notFound(FLOW_NOT_FOUND);
    requireMay(userId, action, 'flow', holderOfRow(flow), 'Flow');
    const { role: _role, ...row } = flow;
    return row;
  }

  /** Hides the flow's request logs up to now; the requests stay in the event log (audit). */
  async clearLogs(flowId: string, userId: string): Promise<void> {
    await this.owned(flowId, userId, 'change');
    await this.sql`UPDATE flows SET logs_cleared_at = clock_timestamp() WHERE id = ${flowId}`;
  }

  /** Leaves the flow's rejected ideas so far out of its prompts and context; the event log keeps them. */
  async clearRejectedIdeas(flowId: string, userId: string): Promise<void> {
    await this.owned(flowId, userId, 'change');
    await this.sql`UPDATE flows SET rejected_ideas_cleared_at = clock_timestamp() WHERE id = ${flowId}`;
  }

  /**
   * The flow's steps as stored, in order, and the flow's version. The version is read first: a change that
   * lands between the two reads makes it older than the steps, never newer, so a write conditioned on it is
   * refused (412) rather than let through on steps its client never saw.
   */
  async steps(flowId: string, userId: string): Promise<{ steps: StepRow[]; version: number }> {
    const { version } = await this.owned(flowId, userId);
    const steps = await this.sql<StepRow[]>`
      SELECT ${this.sql.unsafe(STEP_COLUMNS)} FROM steps WHERE flow_id = ${flowId} ORDER BY "order", created_at, id`;
    return { steps, version };
  }

  /** The flow's steps, in order, when the user may read it (or do `action` to it). */
  async stepSnapshots(flowId: string, userId: string, action: Action = 'read'): Promise<StepSnapshot[]> {
    return (await this.stepsToRun(flowId, userId, this.sql, action)).steps;
  }

  /**
   * What an execution needs of the flow: its steps, in order, and the flow version they are of, when the
   * user may run it (or do `action` to it).
   */
  async stepsToRun(
    flowId: string,
    userId: string,
    sql: Sql = this.sql,
    action: Action = 'run',
  ): Promise<StepsToRun> {
    // One round trip: the flow's row proves ownership, a flow without steps gives one row of nulls.
    type Row = (StepSnapshot | { id: null }) & { flowVersion: number; workspaceId: string | null };
    const rows = await sql<(Row & { flowUserId: string; role: Role | null })[]>`
      SELECT ${sql.unsafe(columnsOf(SNAPSHOT_FIELDS, 's'))}, f.version AS flow_version,
             f.user_id AS flow_user_id, f.workspace_id, ${roleInSql(sql, userId, 'f.workspace_id')}
      FROM flows f LEFT JOIN steps s ON s.flow_id = f.id
      WHERE f.id = ${flowId} AND ${mayInSql(sql, userId, 'read', 'flow', heldIn('f'))}
      ORDER BY s."order", s.created_at, s.id`;
    if (rows.length === 0) throw notFound(FLOW_NOT_FOUND);
    const first = rows[0]!;
    requireMay(userId, action, 'flow', holderOfRow({ ...first, userId: first.flowUserId }), 'Flow');
    const steps = rows
      .filter((row) => row.id !== null)
      .map(
        ({ flowVersion: _version, flowUserId: _user, workspaceId: _workspace, role: _role, ...step }) =>
          step as StepSnapshot,
      );
    return { steps, version: first.flowVersion, workspaceId: first.workspaceId };
  }

  /**
   * The flow as its read models hold it, with the version they reflect: what a command decides on first
   * (the command handler reads the stream only when another command got there first), so an edit costs the
   * flow's rows, not its whole history. The user's flow (named, or the flow of a step), else 404.
   */
  async current(of: { flowId: string } | { stepId: string }, userId: string): Promise<Loaded<FlowState>> {
    const flow =
      'flowId' in of
        ? this.sql`f.id = ${of.flowId}`
        : this.sql`f.id = (SELECT flow_id FROM steps WHERE id = ${of.stepId})`;
    const [row] = await this.sql<
      (FlowRow & { version: number; steps: VersionedStep[]; role: Role | null })[]
    >`
      SELECT f.id, f.user_id, f.workspace_id, f.name, f.description, f.status, f.is_template, f.created_at,
             f.updated_at, f.version, coalesce(s.steps, '[]'::json) AS steps,
             ${roleInSql(this.sql, userId, 'f.workspace_id')}
      FROM flows f
      LEFT JOIN LATERAL (
        SELECT json_agg(json_build_object(
                 'id', id, 'order', "order", 'name', name, 'systemPrompt', system_prompt,
                 'outputMode', output_mode, 'inputSources', input_sources, 'choices', choices,
                 'loopTargetStepId', loop_target_step_id, 'maxLoopIterations', max_loop_iterations,
                 'currentLoopIteration', current_loop_iteration, 'requiresUserInput', requires_user_input,
                 'review', review, 'model', model,
                 'createdAt', to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
               ORDER BY "order", created_at, id) AS steps
        FROM steps WHERE flow_id = f.id
      ) s ON true
      WHERE ${flow} AND ${mayInSql(this.sql, userId, 'read', 'flow', heldIn('f'))}`;
    if (!row) throw notFound('flowId' in of ? FLOW_NOT_FOUND : STEP_NOT_FOUND);
    requireMay(userId, 'change', 'flow', holderOfRow(row), 'Flow');
    const state: FlowState = {
      flowId: row.id,
      userId: row.userId,
      workspaceId: row.workspaceId,
      details: {
        name: row.name,
        description: row.description,
        status: row.status,
        isTemplate: row.isTemplate,
      },
      steps: row.steps,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      deleted: false,
    };
    return { state, version: row.version };
  }
}
