import type { ExecutionState } from '../domain/execution/types';

/** The executions read-model row as postgres.js returns it (camelCase). */
export interface ExecutionRow {
  id: string;
  userId: string;
  flowId: string;
  workspaceId: string | null;
  status: ExecutionState['status'];
  currentStep: number;
  executionQueue: ExecutionState['executionQueue'];
  executionCache: ExecutionState['executionCache'];
  steps: ExecutionState['steps'];
  flowVersion: number | null;
  /** Absent from rows read before the column existed (a migration's test): none. */
  experimentId?: string | null;
  runs: ExecutionState['runs'];
  /** Absent from rows read before the column existed (a migration's test): none. */
  reviews?: ExecutionState['reviews'];
  startedAt: Date;
  completedAt: Date | null;
  position: number;
}

/** The row as an execution state without its results (they live in step_results). */
export function stateOfRow(row: ExecutionRow): ExecutionState {
  return {
    exists: true,
    id: row.id,
    userId: row.userId,
    flowId: row.flowId,
    workspaceId: row.workspaceId,
    status: row.status,
    currentStep: row.currentStep,
    steps: row.steps,
    flowVersion: row.flowVersion,
    experimentId: row.experimentId ?? null,
    executionQueue: row.executionQueue,
    executionCache: row.executionCache,
    runs: row.runs,
    results: [],
    reviews: row.reviews ?? [],
    startedAt: row.startedAt.toISOString(),
    completedAt: row.completedAt ? row.completedAt.toISOString() : null,
  };
}
