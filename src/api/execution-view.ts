import type { Sql } from 'postgres';
import type { ExecutionState, StepResult } from '../domain/execution/types';
import { type ExecutionRow, stateOfRow } from '../projections/execution-row';
import { notFound } from './errors';

/** GET /api/executions/:id: the projected execution with its results and the stream version it reflects. */
export type ExecutionView = ExecutionState & { version: number };

export async function readExecutionView(
  sql: Sql,
  executionId: string,
  userId: string,
): Promise<ExecutionView> {
  const [row] = await sql<
    ExecutionRow[]
  >`SELECT * FROM executions WHERE id = ${executionId} AND user_id = ${userId}`;
  if (!row) throw notFound('Execution not found');
  return viewOf(sql, row);
}

export async function readLatestExecutionView(
  sql: Sql,
  flowId: string,
  userId: string,
): Promise<ExecutionView | null> {
  const [row] = await sql<ExecutionRow[]>`
    SELECT * FROM executions WHERE flow_id = ${flowId} AND user_id = ${userId} ORDER BY started_at DESC LIMIT 1`;
  return row ? viewOf(sql, row) : null;
}

async function viewOf(sql: Sql, row: ExecutionRow): Promise<ExecutionView> {
  const results = await sql<(StepResult & { createdAt: Date })[]>`
    SELECT id, execution_id, step_id, step_order, run_id, label, branch_name, branch_path, choice_index,
           loop_iteration, result, approved, created_at
    FROM step_results WHERE execution_id = ${row.id} ORDER BY step_order, created_at, run_index`;
  return {
    ...stateOfRow(row),
    results: results.map((r) => ({ ...r, createdAt: new Date(r.createdAt).toISOString() })),
    version: row.position,
  };
}
