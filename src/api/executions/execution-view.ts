import type { Sql } from 'postgres';
import { notFound } from '../../domain/errors';
import { MESSAGES } from '../../domain/execution/decide';
import { type ReviewedText, reviewedTextsOf } from '../../domain/execution/reviewed-texts';
import type { ExecutionState, Review, StepResult } from '../../domain/execution/types';
import { type ExecutionRow, stateOfRow } from '../../projections/execution-row';
import { heldIn, mayInSql } from '../access';

/** GET /api/executions/:id: the projected execution with its results and the stream version it reflects. */
export type ExecutionView = Omit<ExecutionState, 'reviews'> & {
  /** Each review; read from the read model, with its results as they stand now. */
  reviews: (Review & { results?: ReviewedText[] })[];
  version: number;
};

/** A result as the query builds it: the origin's and the edit's parts are null where there is none. */
type ResultRow = Omit<StepResult, 'origin' | 'edited'> & {
  sourceExecutionId: string | null;
  sourceExecutionStartedAt: string | null;
  sourceResultId: string | null;
  modelText: string | null;
  editedBy: string | null;
  editedByName: string | null;
  editedAt: string | null;
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
             'sourceResultId', s.source_result_id,
             'modelText', s.model_text, 'editedBy', s.edited_by, 'editedAt', s.edited_at,
             'editedByName', coalesce(nullif(trim(concat_ws(' ', u.first_name, u.last_name)), ''), u.email))
           ORDER BY s.step_order, s.created_at, s.run_index) AS results
    FROM step_results s LEFT JOIN users u ON u.id = s.edited_by WHERE s.execution_id = e.id
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
  if (!row) throw notFound(MESSAGES.executionNotFound);
  return viewOf(row);
}

export async function readLatestExecutionView(
  sql: Sql,
  flowId: string,
  userId: string,
): Promise<ExecutionView | null> {
  const [row] = await viewQuery(
    sql,
    // An experiment's runs are the experiment's: the flow's screen opens the latest run of a person's.
    sql`WHERE e.flow_id = ${flowId} AND e.experiment_id IS NULL AND ${mayInSql(sql, userId, 'read', 'execution', heldIn('e'))} ORDER BY e.started_at DESC LIMIT 1`,
  );
  return row ? viewOf(row) : null;
}

/** A reused result carries its origin; others have no such key, as the domain state folds them. */
function resultOf({
  sourceExecutionId,
  sourceExecutionStartedAt,
  sourceResultId,
  modelText,
  editedBy,
  editedByName: _name,
  editedAt,
  ...result
}: ResultRow): StepResult {
  const createdAt = new Date(result.createdAt).toISOString();
  const edited =
    modelText !== null && editedAt !== null
      ? { edited: { modelText, by: editedBy, at: new Date(editedAt).toISOString() } }
      : {};
  if (sourceExecutionId === null || sourceResultId === null) return { ...result, createdAt, ...edited };
  const executionStartedAt = new Date(sourceExecutionStartedAt ?? result.createdAt).toISOString();
  return {
    ...result,
    createdAt,
    origin: { executionId: sourceExecutionId, executionStartedAt, resultId: sourceResultId },
    ...edited,
  };
}

function viewOf(row: ViewRow): ExecutionView {
  const state = stateOfRow(row);
  const results = row.results.map(resultOf);
  const names = new Map(row.results.map((r) => [r.editedBy, r.editedByName ?? ''] as const));
  const nameOf = (userId: string) => names.get(userId) ?? '';
  return {
    ...state,
    results,
    reviews: state.reviews.map((review) => ({
      ...review,
      results: reviewedTextsOf(review, results, nameOf),
    })),
    version: row.position,
  };
}
