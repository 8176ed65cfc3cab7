import type { Sql } from 'postgres';
import { notFound } from '../../domain/errors';
import type { ExecutionState, StepResult } from '../../domain/execution/types';
import { type ExecutionRow, stateOfRow } from '../../projections/execution-row';
import { heldIn, mayInSql } from '../access';

/** GET /api/executions/:id: the projected execution with its results and the stream version it reflects. */
export type ExecutionView = ExecutionState & { version: number };

/** A result as the query builds it: the origin's parts are null on results a run produced. */
type ResultRow = Omit<StepResult, 'origin'> & {
  sourceExecutionId: string | null;
  sourceExecutionStartedAt: string | null;
  sourceResultId: string | null;
};

type ViewRow = ExecutionRow & { results: ResultRow[] };

/** The execution row with its results, in one round trip (it is what every poll asks for). */
const viewQuery = (sql: Sql, where: ReturnType<Sql>) => sql<ViewRow[]>`
  SELECT e.*, COALESCE(r.results, '[]'::json) AS results
  FROM executions e
  LEFT JOIN LATERAL (
    SELECT json_agg(json_build_object(
             'id', s.id, 'executionId', s.execution_id, 'stepId', s.step_id, 'stepOrder', s.step_order,
             'runId', s.run_id, 'label', s.label, 'branchName', s.branch_name, 'branchPath', s.branch_path,
             'choiceIndex', s.choice_index, 'loopIteration', s.loop_iteration, 'result', s.result,
             'approved', s.approved, 'createdAt', s.created_at,
             'sourceExecutionId', s.source_execution_id,
             'sourceExecutionStartedAt', s.source_execution_started_at,
             'sourceResultId', s.source_result_id)
           ORDER BY s.step_order, s.created_at, s.run_index) AS results
    FROM step_results s WHERE s.execution_id = e.id
  ) r ON true
  ${where}`;

export async function readExecutionView(
  sql: Sql,
  executionId: string,
  userId: string,
): Promise<ExecutionView> {
  const [row] = await viewQuery(
    sql,
    sql`WHERE e.id = ${executionId} AND ${mayInSql(sql, userId, 'read', 'execution', heldIn('e'))}`,
  );
  if (!row) throw notFound('Execution not found');
  return viewOf(row);
}

export async function readLatestExecutionView(
  sql: Sql,
  flowId: string,
  userId: string,
): Promise<ExecutionView | null> {
  const [row] = await viewQuery(
    sql,
    sql`WHERE e.flow_id = ${flowId} AND ${mayInSql(sql, userId, 'read', 'execution', heldIn('e'))} ORDER BY e.started_at DESC LIMIT 1`,
  );
  return row ? viewOf(row) : null;
}

/** A reused result carries its origin; others have no such key, as the domain state folds them. */
function resultOf({
  sourceExecutionId,
  sourceExecutionStartedAt,
  sourceResultId,
  ...result
}: ResultRow): StepResult {
  const createdAt = new Date(result.createdAt).toISOString();
  if (sourceExecutionId === null || sourceResultId === null) return { ...result, createdAt };
  const executionStartedAt = new Date(sourceExecutionStartedAt ?? result.createdAt).toISOString();
  return {
    ...result,
    createdAt,
    origin: { executionId: sourceExecutionId, executionStartedAt, resultId: sourceResultId },
  };
}

function viewOf(row: ViewRow): ExecutionView {
  return { ...stateOfRow(row), results: row.results.map(resultOf), version: row.position };
}
