import type { TransactionSql } from 'postgres';
import type { ExecutionEvent, ExecutionState } from '../domain/execution/types';

type ResultDeleted = Extract<ExecutionEvent, { type: 'ResultDeleted' }>;

/**
 * A deleted result leaves step_results and becomes a rejected idea of its flow. The step it came from
 * is read from the row being deleted: the execution state loaded from the read model carries no results.
 */
export async function projectRejectedIdea(
  sql: TransactionSql,
  executionId: string,
  event: ResultDeleted,
  after: ExecutionState,
  position: number,
): Promise<void> {
  const { resultId, content, at } = event.data;
  const [deleted] = await sql<{ stepId: string; stepOrder: number; label: string | null }[]>`
    DELETE FROM step_results WHERE id = ${resultId} RETURNING step_id, step_order, label`;
  await sql`
    INSERT INTO rejected_ideas ${sql({
      id: resultId,
      userId: after.userId,
      flowId: after.flowId,
      executionId,
      stepId: deleted?.stepId ?? null,
      stepOrder: deleted?.stepOrder ?? null,
      label: deleted?.label ?? null,
      content,
      deletedAt: at,
      position,
    } as Record<string, unknown>)}
    ON CONFLICT (id) DO NOTHING`;
}
