import type { TransactionSql } from 'postgres';
import { decider as flowDecider } from '../domain/flow/decider';
import { FLOW_STREAM_PREFIX, type FlowEvent, type FlowState } from '../domain/flow/events';
import type { Statement } from '../eventstore';
import type { ProjectableEvent } from './project-execution-events';

export const toFlowEvent = (recorded: Pick<ProjectableEvent, 'type' | 'data'>) =>
  ({ type: recorded.type, data: recorded.data }) as FlowEvent;

/** A flow as it stood before some events: its state and the stream position it reflects. */
export interface FlowBefore {
  state: FlowState;
  version: number;
}

/**
 * The statements that write `flows` and `steps` as the flow stands after one stream's events (a command's
 * append): the flow's row (its version the stream's position), and of its steps only those the events changed,
 * added or removed, so that editing one step of a large flow writes that step, not the flow. The flow's other
 * columns (`logs_cleared_at`) are no version of it and stay as they are.
 */
export function flowStatements(
  sql: TransactionSql,
  events: ProjectableEvent[],
  before: FlowBefore,
): Statement[] {
  const state = events.map(toFlowEvent).reduce(flowDecider.evolve, before.state);
  const version = events.at(-1)?.streamPosition ?? before.version;
  return writeFlows(sql, [{ state, version }], before.state);
}

/**
 * The flow streams of a rebuild's batches: each flow's state is carried from batch to batch, since a stream
 * may be split between two of them.
 */
export class FlowStreamsRebuild {
  private readonly flows = new Map<string, FlowBefore>();

  /**
   * The flows of a batch's flow streams as they stand after them. The next batch continues from there, so a
   * batch's flows are folded once, whichever times they are written.
   */
  fold(streams: ProjectableEvent[][]): FlowBefore[] {
    const flowStreams = streams.filter((events) => events[0]?.streamId.startsWith(FLOW_STREAM_PREFIX));
    return flowStreams.map((events) => {
      const streamId = events[0]!.streamId;
      const before = this.flows.get(streamId) ?? { state: flowDecider.initialState(), version: 0 };
      const after = {
        state: events.map(toFlowEvent).reduce(flowDecider.evolve, before.state),
        version: events.at(-1)!.streamPosition,
      };
      if (after.state.deleted) this.flows.delete(streamId);
      else this.flows.set(streamId, after);
      return after;
    });
  }

  /** Writes the folded flows, their statements sent together (a transaction's statements travel pipelined). */
  async write(sql: TransactionSql, flows: FlowBefore[]): Promise<void> {
    await Promise.all(writeFlows(sql, flows));
  }
}

/**
 * The flows' rows and steps as the flows stand, in at most four statements whatever their number: deleted
 * flows go (their steps with them), the others' rows are written over and their steps replaced whole; or,
 * given the one flow as it was `before`, only its steps that are not the same objects as before (flowDecider.evolve
 * keeps a step it does not change) are written, and those no longer there deleted.
 */
function writeFlows(sql: TransactionSql, flows: FlowBefore[], before?: FlowState): Statement[] {
  const known = flows.filter(({ state }) => state.flowId !== null && state.userId !== null);
  const deleted = known.filter(({ state }) => state.deleted).map(({ state }) => state.flowId!);
  const kept = known.filter(({ state }) => !state.deleted);
  const statements: Statement[] = [];
  if (deleted.length > 0) statements.push(sql`DELETE FROM flows WHERE id = ANY(${deleted}::uuid[])`);
  if (kept.length === 0) return statements;
  const rows = JSON.stringify(
    kept.map(({ state, version }) => ({
      id: state.flowId,
      user_id: state.userId,
      workspace_id: state.workspaceId,
      name: state.details.name,
      description: state.details.description,
      status: state.details.status,
      is_template: state.details.isTemplate,
      created_at: state.createdAt,
      updated_at: state.updatedAt,
      version,
    })),
  );
  const unchanged = new Set(before?.steps ?? []);
  const steps = kept.flatMap(({ state }) =>
    state.steps
      .filter((step) => !unchanged.has(step))
      .map((step) => ({
        id: step.id,
        flow_id: state.flowId,
        order: step.order,
        name: step.name,
        system_prompt: step.systemPrompt,
        output_mode: step.outputMode,
        input_sources: step.inputSources,
        choices: step.choices,
        loop_target_step_id: step.loopTargetStepId,
        max_loop_iterations: step.maxLoopIterations,
        current_loop_iteration: step.currentLoopIteration,
        requires_user_input: step.requiresUserInput,
        review: step.review ?? null,
        model: step.model ?? null,
        created_at: step.createdAt,
      })),
  );
  const ids = kept.map(({ state }) => state.flowId!);
  const replaced = before === undefined;
  const now = new Set(kept.flatMap(({ state }) => state.steps.map((step) => step.id)));
  const removed = (before?.steps ?? []).filter((step) => !now.has(step.id)).map((step) => step.id);
  // Sent together: a transaction's statements travel pipelined, in order.
  statements.push(
    sql`
      INSERT INTO flows (id, user_id, workspace_id, name, description, status, is_template, created_at, updated_at,
                         version)
      SELECT id, user_id, workspace_id, name, description, status, is_template, created_at, updated_at, version
      FROM json_populate_recordset(NULL::flows, ${rows}::text::json)
      ON CONFLICT (id) DO UPDATE SET
        workspace_id = excluded.workspace_id, name = excluded.name, description = excluded.description, status = excluded.status,
        is_template = excluded.is_template, created_at = excluded.created_at,
        updated_at = excluded.updated_at, version = excluded.version`,
  );
  if (replaced) statements.push(sql`DELETE FROM steps WHERE flow_id = ANY(${ids}::uuid[])`);
  else if (removed.length > 0) statements.push(sql`DELETE FROM steps WHERE id = ANY(${removed}::uuid[])`);
  if (steps.length > 0) {
    statements.push(sql`
      INSERT INTO steps (id, flow_id, "order", name, system_prompt, output_mode, input_sources, choices,
                         loop_target_step_id, max_loop_iterations, current_loop_iteration,
                         requires_user_input, review, model, created_at)
      SELECT id, flow_id, "order", name, system_prompt, output_mode, input_sources, choices,
             loop_target_step_id, max_loop_iterations, current_loop_iteration, requires_user_input,
             review, model, created_at
      FROM json_populate_recordset(NULL::steps, ${JSON.stringify(steps)}::text::json)
      ON CONFLICT (id) DO UPDATE SET
        flow_id = excluded.flow_id, "order" = excluded."order", name = excluded.name,
        system_prompt = excluded.system_prompt, output_mode = excluded.output_mode,
        input_sources = excluded.input_sources, choices = excluded.choices,
        loop_target_step_id = excluded.loop_target_step_id, max_loop_iterations = excluded.max_loop_iterations,
        current_loop_iteration = excluded.current_loop_iteration,
        requires_user_input = excluded.requires_user_input, review = excluded.review, model = excluded.model,
        created_at = excluded.created_at`);
  }
  return statements;
}
