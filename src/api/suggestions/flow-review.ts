import type { Sql } from 'postgres';
import type { StepSnapshot } from '../../domain/flow';
import type { FlowReview } from '../../domain/flow-suggestions';
import { EXECUTION_STREAM_PREFIX } from '../../projections/project-execution-events';
import { notCleared } from '../conversation-context/conversation-contexts';

/** Enough recent history to judge a flow by; older runs say less about its prompts as they are now. */
const HISTORY_LIMIT = 50;

/**
 * What suggestions for a flow are grounded in: its steps, the requests its log lists (a cleared log
 * starts afresh, as the conversation does), the results users rewrote (ResultEdited, from the event
 * log), the results they deleted, and how many results each step kept and had approved.
 */
export async function readFlowReview(
  sql: Sql,
  flow: { id: string; name: string; description: string; logsClearedAt: Date | null },
  steps: StepSnapshot[],
): Promise<FlowReview> {
  const [requests, edits, rejectedIdeas, resultCounts] = await Promise.all([
    sql<FlowReview['requests']>`
      SELECT step_id, step_order, success, ai_response AS answer, error_message
      FROM ai_request_logs
      WHERE flow_id = ${flow.id} AND success IS NOT NULL
        AND (${flow.logsClearedAt}::timestamptz IS NULL OR requested_at > ${flow.logsClearedAt})
      ORDER BY requested_at DESC, id LIMIT ${HISTORY_LIMIT}`,
    // A result deleted after its edit is found among the rejected ideas, which keep its step.
    sql<FlowReview['edits']>`
      SELECT coalesce(r.step_id, ri.step_id) AS step_id, coalesce(r.step_order, ri.step_order) AS step_order,
             e.data->>'before' AS before, e.data->>'after' AS after
      FROM executions x
      JOIN events e ON e.stream_id = ${EXECUTION_STREAM_PREFIX} || x.id::text AND e.event_type = 'ResultEdited'
      LEFT JOIN step_results r ON r.id = (e.data->>'resultId')::uuid
      LEFT JOIN rejected_ideas ri ON ri.id = (e.data->>'resultId')::uuid
      WHERE x.flow_id = ${flow.id} AND e.data->>'before' IS DISTINCT FROM e.data->>'after'
      ORDER BY e.global_position DESC LIMIT ${HISTORY_LIMIT}`,
    sql<FlowReview['rejectedIdeas']>`
      SELECT step_id, step_order, label, content FROM rejected_ideas r
      WHERE flow_id = ${flow.id} AND ${notCleared(sql, flow.id)}
      ORDER BY deleted_at DESC, id LIMIT ${HISTORY_LIMIT}`,
    sql<FlowReview['resultCounts']>`
      SELECT r.step_id, count(*)::int AS total, (count(*) FILTER (WHERE r.approved))::int AS approved
      FROM step_results r JOIN executions x ON x.id = r.execution_id
      WHERE x.flow_id = ${flow.id} GROUP BY r.step_id`,
  ]);
  return {
    flow: { name: flow.name, description: flow.description },
    steps,
    requests: [...requests],
    edits: [...edits],
    rejectedIdeas: [...rejectedIdeas],
    resultCounts: [...resultCounts],
  };
}
