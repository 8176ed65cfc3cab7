import type { ExecutionEvent, ExecutionState } from '../domain/execution/types';
import type { ReadModelChange } from './read-model-change';

type ResultDeleted = Extract<ExecutionEvent, { type: 'ResultDeleted' }>;

/**
 * A deleted result leaves step_results and becomes a rejected idea of its flow. Its step and label are
 * read from the result's row when it is deleted: the execution state loaded from the read model carries
 * no results.
 */
export function rejectedIdeaChange(
  executionId: string,
  event: ResultDeleted,
  after: ExecutionState,
  position: number,
): ReadModelChange {
  const { resultId, content, at } = event.data;
  return {
    type: 'resultDeleted',
    rejected: {
      id: resultId,
      userId: after.userId,
      flowId: after.flowId,
      executionId,
      content,
      deletedAt: at,
      position,
    },
  };
}
