import type { TransactionSql } from 'postgres';
import {
  evolveFlow,
  FLOW_STREAM_PREFIX,
  type FlowEvent,
  type FlowState,
  initialFlowState,
} from '../domain/flow-history/flow-events';
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
 * The statements that write `flows` and `steps` as the flow stands after one stream's events: the flow's row
 * (its version the stream's position) and its steps, replaced whole. Inline (a command's append) and in a
 * rebuild alike; the flow's other columns (`logs_cleared_at`) are no version of it and stay as they are.
 */
export function flowStatements(
  sql: TransactionSql,
  events: ProjectableEvent[],
  before: FlowBefore,
): Statement[] {
  const state = events.map(toFlowEvent).reduce(evolveFlow, before.state);
  const version = events.at(-1)?.streamPosition ?? before.version;
  return writeFlow(sql, state, version);
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
      const before = this.flows.get(streamId) ?? { state: initialFlowState(), version: 0 };
      const after = {
        state: events.map(toFlowEvent).reduce(evolveFlow, before.state),
        version: events.at(-1)!.streamPosition,
      };
      if (after.state.deleted) this.flows.delete(streamId);
      else this.flows.set(streamId, after);
      return after;
    });
  }

  /** Writes the folded flows, their statements sent together (a transaction's statements travel pipelined). */
  async write(sql: TransactionSql, flows: FlowBefore[]): Promise<void> {
    await Promise.all(flows.flatMap((flow) => flowStatements(sql, [], flow)));
  }
}

function writeFlow(sql: TransactionSql, state: FlowState, version: number): Statement[] {
  const { flowId, userId, details } = state;
  if (flowId === null || userId === null) return [];
  if (state.deleted) return [sql`DELETE FROM flows WHERE id = ${flowId}`];
  const steps = JSON.stringify(
    state.steps.map((step) => ({
      id: step.id,
      flow_id: flowId,
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
      created_at: step.createdAt,
    })),
  );
  // Sent together: a transaction's statements travel pipelined, in order.
  return [
    sql`
      INSERT INTO flows (id, user_id, name, description, status, is_template, created_at, updated_at, version)
      VALUES (${flowId}, ${userId}, ${details.name}, ${details.description}, ${details.status},
              ${details.isTemplate}, ${state.createdAt}, ${state.updatedAt}, ${version})
      ON CONFLICT (id) DO UPDATE SET
        name = excluded.name, description = excluded.description, status = excluded.status,
        is_template = excluded.is_template, created_at = excluded.created_at,
        updated_at = excluded.updated_at, version = excluded.version`,
    sql`DELETE FROM steps WHERE flow_id = ${flowId}`,
    ...(state.steps.length === 0
      ? []
      : [
          sql`
            INSERT INTO steps (id, flow_id, "order", name, system_prompt, output_mode, input_sources, choices,
                               loop_target_step_id, max_loop_iterations, current_loop_iteration,
                               requires_user_input, created_at)
            SELECT id, flow_id, "order", name, system_prompt, output_mode, input_sources, choices,
                   loop_target_step_id, max_loop_iterations, current_loop_iteration, requires_user_input,
                   created_at
            FROM json_populate_recordset(NULL::steps, ${steps}::text::json)`,
        ]),
  ];
}
