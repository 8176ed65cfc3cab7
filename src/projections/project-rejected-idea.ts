import type { TransactionSql } from 'postgres';
import type { ExecutionEvent, ExecutionState } from '../domain/execution/types';

type ResultDeleted = Extract<ExecutionEvent, { type: 'ResultDeleted' }>;

/**
 * A deleted result leaves step_results and becomes a rejected idea of its flow, in one statement. The
 * step it came from is read from the row being deleted: the execution state loaded from the read model
 * carries no results.
 */
export function rejectedIdeaWrite(
  sql: TransactionSql,
  executionId: string,
  event: ResultDeleted,
  after: ExecutionState,
  position: number,
) {
  const { resultId, content, at } = event.data;
  return sql`
    WITH deleted AS (
      DELETE FROM step_results WHERE id = ${resultId} RETURNING step_id, step_order, label
    )
    INSERT INTO rejected_ideas
      (id, user_id, flow_id, execution_id, step_id, step_order, label, content, deleted_at, position)
    SELECT ${resultId}::uuid, ${after.userId}::uuid, ${after.flowId}::uuid, ${executionId}::uuid,
      (SELECT step_id FROM deleted), (SELECT step_order FROM deleted), (SELECT label FROM deleted),
      ${content}::text, ${at}::timestamptz, ${position}::bigint
    ON CONFLICT (id) DO NOTHING`;
}
