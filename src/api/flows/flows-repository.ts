import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { JSONValue, Sql, TransactionSql } from 'postgres';
import {
  type CreateFlowInput,
  type CreateStepInput,
  type Flow,
  normaliseStepConfig,
  type Step,
  type StepSnapshot,
  type UpdateStepInput,
} from '../../domain/flow';
import { inputSourceIds, type WorkflowJson } from '../../domain/workflow-json';
import { notFound, ruleViolated } from '../../domain/errors';

declare module 'fastify' {
  interface FastifyInstance {
    flows: FlowsRepository;
  }
}

/** A flow as its row holds it: times are Dates until they are serialised. */
export type FlowRow = Omit<Flow, 'createdAt' | 'updatedAt'> & {
  createdAt: Date;
  updatedAt: Date;
  /** "Clear logs" hides the request logs up to this time. */
  logsClearedAt: Date | null;
};

export type StepRow = Omit<Step, 'createdAt'> & { createdAt: Date };

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
}

export type FlowChanges = Partial<CreateFlowInput>;

const FLOW_COLUMNS =
  'id, user_id, name, description, status, is_template, logs_cleared_at, created_at, updated_at';
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
];
const STEP_FIELDS = [...SNAPSHOT_FIELDS, 'flow_id', 'current_loop_iteration', 'created_at'];
const columnsOf = (fields: string[], table?: string) =>
  fields.map((field) => (table ? `${table}.${field}` : field)).join(', ');
const STEP_COLUMNS = columnsOf(STEP_FIELDS);

const FLOW_NOT_FOUND = 'Flow not found';

/** A step as inserted: its configuration normalised (spec §5), its lists as JSON. */
function stepRow(sql: Sql | TransactionSql, step: Omit<Step, 'createdAt'>): Record<string, unknown> {
  const normalised = normaliseStepConfig(step);
  return {
    ...normalised,
    inputSources: sql.json(normalised.inputSources as JSONValue),
    choices: sql.json(normalised.choices as JSONValue),
  };
}

/**
 * Flows and their steps: every read and write of the flows and steps tables, and the rule that a flow or
 * step reached through another user's id is missing (404), never shown.
 */
export class FlowsRepository {
  constructor(private readonly sql: Sql) {}

  /** The user's flows, newest first, with their step count and the time of their latest step run. */
  list(userId: string): Promise<FlowListRow[]> {
    return this.sql<FlowListRow[]>`
      SELECT f.id, f.name, f.description, f.status, f.created_at, f.updated_at,
             (SELECT count(*)::int FROM steps s WHERE s.flow_id = f.id) AS step_count,
             (SELECT max(l.requested_at) FROM ai_request_logs l WHERE l.flow_id = f.id) AS last_run
      FROM flows f WHERE f.user_id = ${userId} ORDER BY f.created_at DESC`;
  }

  /** The flow, when it is the user's; otherwise 404. */
  async owned(flowId: string, userId: string): Promise<FlowRow> {
    const [flow] = await this.sql<FlowRow[]>`
      SELECT ${this.sql.unsafe(FLOW_COLUMNS)} FROM flows WHERE id = ${flowId} AND user_id = ${userId}`;
    if (!flow) throw notFound(FLOW_NOT_FOUND);
    return flow;
  }

  async create(userId: string, input: CreateFlowInput): Promise<FlowRow> {
    const [flow] = await this.sql<FlowRow[]>`
      INSERT INTO flows (user_id, name, description, status)
      VALUES (${userId}, ${input.name}, ${input.description}, ${input.status ?? 'draft'})
      RETURNING ${this.sql.unsafe(FLOW_COLUMNS)}`;
    return flow!;
  }

  async update(flowId: string, userId: string, changes: FlowChanges): Promise<FlowRow> {
    const [flow] = await this.sql<FlowRow[]>`
      UPDATE flows SET
        name = coalesce(${changes.name ?? null}, name),
        description = coalesce(${changes.description ?? null}, description),
        status = coalesce(${changes.status ?? null}, status),
        updated_at = now()
      WHERE id = ${flowId} AND user_id = ${userId}
      RETURNING ${this.sql.unsafe(FLOW_COLUMNS)}`;
    if (!flow) throw notFound(FLOW_NOT_FOUND);
    return flow;
  }

  async delete(flowId: string, userId: string): Promise<void> {
    const deleted = await this.sql`
      DELETE FROM flows WHERE id = ${flowId} AND user_id = ${userId} RETURNING id`;
    if (deleted.length === 0) throw notFound(FLOW_NOT_FOUND);
  }

  /** Hides the flow's request logs up to now; the requests stay in the event log (audit). */
  async clearLogs(flowId: string, userId: string): Promise<void> {
    const updated = await this.sql`
      UPDATE flows SET logs_cleared_at = clock_timestamp()
      WHERE id = ${flowId} AND user_id = ${userId} RETURNING id`;
    if (updated.length === 0) throw notFound(FLOW_NOT_FOUND);
  }

  /** The flow's steps as stored, in order. */
  async steps(flowId: string, userId: string): Promise<StepRow[]> {
    await this.owned(flowId, userId);
    return this.sql<StepRow[]>`
      SELECT ${this.sql.unsafe(STEP_COLUMNS)} FROM steps WHERE flow_id = ${flowId} ORDER BY "order", created_at`;
  }

  /** What an execution (or a review of the flow) needs of the flow's steps, in order. */
  async stepSnapshots(flowId: string, userId: string): Promise<StepSnapshot[]> {
    // One round trip: the flow's row proves ownership, a flow without steps gives one row of nulls.
    const rows = await this.sql<(StepSnapshot | { id: null })[]>`
      SELECT ${this.sql.unsafe(columnsOf(SNAPSHOT_FIELDS, 's'))}
      FROM flows f LEFT JOIN steps s ON s.flow_id = f.id
      WHERE f.id = ${flowId} AND f.user_id = ${userId}
      ORDER BY s."order", s.created_at`;
    if (rows.length === 0) throw notFound(FLOW_NOT_FOUND);
    return rows.filter((row): row is StepSnapshot => row.id !== null);
  }

  /** The step, when its flow is the user's; otherwise 404. */
  async ownedStep(stepId: string, userId: string): Promise<StepRow> {
    const [step] = await this.sql<StepRow[]>`
      SELECT ${this.sql.unsafe(columnsOf(STEP_FIELDS, 's'))}
      FROM steps s JOIN flows f ON f.id = s.flow_id WHERE s.id = ${stepId} AND f.user_id = ${userId}`;
    if (!step) throw notFound('Step not found');
    return step;
  }

  async addStep(userId: string, input: CreateStepInput): Promise<StepRow> {
    await this.owned(input.flowId, userId);
    await this.checkInputSources(input.flowId, input.order, input.inputSources);
    const [created] = await this.sql<StepRow[]>`
      INSERT INTO steps ${this.sql(stepRow(this.sql, { ...input, id: randomUUID() }))}
      RETURNING ${this.sql.unsafe(STEP_COLUMNS)}`;
    await this.touch(input.flowId);
    return created!;
  }

  async updateStep(stepId: string, userId: string, changes: UpdateStepInput): Promise<StepRow> {
    const current = await this.ownedStep(stepId, userId);
    const next = normaliseStepConfig({ ...current, ...changes });
    await this.checkInputSources(current.flowId, next.order, next.inputSources);
    const [updated] = await this.sql<StepRow[]>`
      UPDATE steps SET
        name = ${next.name}, "order" = ${next.order}, system_prompt = ${next.systemPrompt},
        output_mode = ${next.outputMode}, input_sources = ${this.sql.json(next.inputSources)},
        choices = ${this.sql.json(next.choices)}, loop_target_step_id = ${next.loopTargetStepId},
        max_loop_iterations = ${next.maxLoopIterations}, current_loop_iteration = ${next.currentLoopIteration},
        requires_user_input = ${next.requiresUserInput}
      WHERE id = ${stepId}
      RETURNING ${this.sql.unsafe(STEP_COLUMNS)}`;
    await this.touch(current.flowId);
    return updated!;
  }

  async deleteStep(stepId: string, userId: string): Promise<void> {
    const step = await this.ownedStep(stepId, userId);
    await this.sql.begin(async (tx) => {
      await tx`DELETE FROM steps WHERE id = ${stepId}`;
      // Later steps stop pointing at the removed one.
      await tx`
        UPDATE steps SET input_sources = input_sources - ${stepId}::text
        WHERE flow_id = ${step.flowId} AND input_sources ? ${stepId}::text`;
      await tx`UPDATE flows SET updated_at = now() WHERE id = ${step.flowId}`;
    });
  }

  /**
   * A new flow with all its steps, created whole or not at all: in the caller's transaction when one is
   * given (so the caller's own writes commit with it), else in one of its own. Steps keep their orders;
   * their 'step-N' input sources become the new steps' ids, and each step's configuration is normalised
   * as every saved step's is. A missing description becomes the name.
   */
  async createWithSteps(
    userId: string,
    workflow: WorkflowJson,
    tx?: TransactionSql,
  ): Promise<FlowRow & { steps: StepRow[] }> {
    if (!tx) {
      return this.sql.begin((own) => this.createWithSteps(userId, workflow, own)) as Promise<
        FlowRow & { steps: StepRow[] }
      >;
    }
    const idOfOrder = new Map(workflow.steps.map((step) => [step.order, randomUUID()]));
    const [flow] = await tx<FlowRow[]>`
      INSERT INTO flows (user_id, name, description)
      VALUES (${userId}, ${workflow.name}, ${workflow.description || workflow.name})
      RETURNING ${tx.unsafe(FLOW_COLUMNS)}`;
    const rows = workflow.steps.map((step) =>
      stepRow(tx, {
        id: idOfOrder.get(step.order)!,
        flowId: flow!.id,
        order: step.order,
        name: step.name,
        systemPrompt: step.systemPrompt,
        outputMode: step.outputMode,
        inputSources: inputSourceIds(step, idOfOrder),
        choices: step.choices,
        loopTargetStepId: null,
        maxLoopIterations: step.maxLoopIterations,
        currentLoopIteration: 0,
        requiresUserInput: step.requiresUserInput,
      }),
    );
    const steps =
      rows.length === 0
        ? []
        : await tx<StepRow[]>`INSERT INTO steps ${tx(rows)} RETURNING ${tx.unsafe(STEP_COLUMNS)}`;
    return { ...flow!, steps: steps.toSorted((a, b) => a.order - b.order) };
  }

  /** Input sources may only name earlier steps of the same flow (spec §5). */
  private async checkInputSources(flowId: string, order: number, inputSources: string[]) {
    if (inputSources.length === 0) return;
    const earlier = await this.sql<{ id: string }[]>`
      SELECT id FROM steps WHERE flow_id = ${flowId} AND "order" < ${order} AND id IN ${this.sql(inputSources)}`;
    if (earlier.length !== new Set(inputSources).size) {
      throw ruleViolated('inputSources: input sources may only be earlier steps of the same flow');
    }
  }

  private async touch(flowId: string) {
    await this.sql`UPDATE flows SET updated_at = now() WHERE id = ${flowId}`;
  }
}

export default fp(
  async (app: FastifyInstance) => {
    app.decorate('flows', new FlowsRepository(app.sql));
  },
  { name: 'flows-repository', fastify: '5.x', decorators: { fastify: ['sql'] } },
);
