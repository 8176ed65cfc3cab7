import type { Sql } from 'postgres';
import type { StepSnapshot } from '../../domain/flow';
import type { FlowUsage, StepUsage } from '../../domain/workflow-patterns';
import { EXECUTION_STREAM_PREFIX } from '../../projections/project-execution-events';
import { heldIn, mayInSql } from '../access';

/** Edits read per look: enough to count a step's rework and quote its latest correction. */
const EDIT_LIMIT = 2_000;

type StepRow = StepSnapshot & { flowId: string };

/**
 * A user's flows (oldest first) with their steps and what happened to them: executions, successful runs
 * and re-runs per step (from the request log, cleared or not: clearing hides logs, it does not undo work),
 * results rewritten (ResultEdited in the event log) and results deleted (rejected ideas).
 *
 * The user's: the flows they made and the executions they started, and of those only what they may read
 * now (`mayInSql`), so a member removed from a workspace is no longer shown its flows' prompts, names or
 * results through recommendations. Runs, edits and rejected ideas are read through their execution.
 */
export async function readFlowUsage(sql: Sql, userId: string): Promise<FlowUsage[]> {
  const [flows, steps, executions, runs, edits, rejections] = await Promise.all([
    sql<{ id: string; name: string; description: string }[]>`
      SELECT f.id, f.name, f.description FROM flows f
      WHERE f.user_id = ${userId} AND ${mayInSql(sql, userId, 'read', 'flow', heldIn('f'))}
      ORDER BY f.created_at, f.id`,
    sql<StepRow[]>`
      SELECT s.id, s.flow_id, s."order", s.name, s.system_prompt, s.output_mode, s.input_sources, s.choices,
             s.loop_target_step_id, s.max_loop_iterations, s.requires_user_input
      FROM steps s JOIN flows f ON f.id = s.flow_id
      WHERE f.user_id = ${userId} AND ${mayInSql(sql, userId, 'read', 'flow', heldIn('f'))}
      ORDER BY s."order", s.created_at`,
    sql<{ flowId: string; count: number }[]>`
      SELECT x.flow_id, count(*)::int AS count FROM executions x
      WHERE x.user_id = ${userId} AND ${mayInSql(sql, userId, 'read', 'execution', heldIn('x'))}
      GROUP BY x.flow_id`,
    sql<{ stepId: string; runs: number; reruns: number }[]>`
      SELECT l.step_id, count(*)::int AS runs, (count(*) - count(DISTINCT l.execution_id))::int AS reruns
      FROM ai_request_logs l JOIN executions x ON x.id = l.execution_id
      WHERE l.user_id = ${userId} AND l.success
        AND ${mayInSql(sql, userId, 'read', 'execution', heldIn('x'))}
      GROUP BY l.step_id`,
    // A result deleted after its edit is found among the rejected ideas, which keep its step.
    sql<{ stepId: string | null; before: string; after: string }[]>`
      SELECT coalesce(r.step_id, ri.step_id) AS step_id, e.data->>'before' AS before, e.data->>'after' AS after
      FROM executions x
      JOIN events e ON e.stream_id = ${EXECUTION_STREAM_PREFIX} || x.id::text AND e.event_type = 'ResultEdited'
      LEFT JOIN step_results r ON r.id = (e.data->>'resultId')::uuid
      LEFT JOIN rejected_ideas ri ON ri.id = (e.data->>'resultId')::uuid
      WHERE x.user_id = ${userId} AND ${mayInSql(sql, userId, 'read', 'execution', heldIn('x'))}
        AND e.data->>'before' IS DISTINCT FROM e.data->>'after'
      ORDER BY e.global_position DESC LIMIT ${EDIT_LIMIT}`,
    sql<{ stepId: string; count: number; latest: string }[]>`
      SELECT ri.step_id, count(*)::int AS count,
             (array_agg(ri.content ORDER BY ri.deleted_at DESC, ri.id))[1] AS latest
      FROM rejected_ideas ri JOIN executions x ON x.id = ri.execution_id
      WHERE ri.user_id = ${userId} AND ri.step_id IS NOT NULL
        AND ${mayInSql(sql, userId, 'read', 'execution', heldIn('x'))}
      GROUP BY ri.step_id`,
  ]);

  const historyOf = (stepId: string): StepUsage => {
    const run = runs.find((r) => r.stepId === stepId);
    const stepEdits = edits.filter((e) => e.stepId === stepId);
    const rejected = rejections.find((r) => r.stepId === stepId);
    const [latestEdit] = stepEdits;
    return {
      stepId,
      runs: run?.runs ?? 0,
      reruns: run?.reruns ?? 0,
      edits: stepEdits.length,
      rejections: rejected?.count ?? 0,
      latestEdit: latestEdit ? { before: latestEdit.before, after: latestEdit.after } : null,
      latestRejection: rejected?.latest ?? null,
    };
  };

  return flows.map((flow) => {
    const flowSteps = steps
      .filter((step) => step.flowId === flow.id)
      .map(({ flowId: _flowId, ...step }) => step);
    return {
      id: flow.id,
      name: flow.name,
      description: flow.description,
      steps: flowSteps,
      executions: executions.find((e) => e.flowId === flow.id)?.count ?? 0,
      stepHistory: flowSteps.map((step) => historyOf(step.id)),
    };
  });
}
