import { queryOptions, useQuery } from '@tanstack/react-query';
import { type AnswerOf, answerOf, client } from '@/lib/api-client';
import type { ExecutionEvent } from '../../../../../domain/execution/types';

/**
 * One event of an execution's log as the history API gives it: what happened, when, and who did it. What
 * happened stays the domain's ExecutionEvent: the screen folds the events with the server's own `evolve`.
 */
export type HistoryEvent = ExecutionEvent &
  Omit<AnswerOf<'/api/executions/{id}/events'>['items'][number], 'type' | 'data'>;

/** The largest page the API gives. */
const PAGE_SIZE = 200;

/** The whole log of an execution, read page by page: the screen folds it to any point. */
async function fetchExecutionHistory(executionId: string): Promise<HistoryEvent[]> {
  const events: HistoryEvent[] = [];
  let cursor: string | null = null;
  do {
    const page: AnswerOf<'/api/executions/{id}/events'> = answerOf(
      await client.GET('/api/executions/{id}/events', {
        params: {
          path: { id: executionId },
          query: { limit: PAGE_SIZE, ...(cursor === null ? {} : { cursor }) },
        },
      }),
    );
    events.push(...(page.items as HistoryEvent[]));
    cursor = page.nextCursor;
  } while (cursor !== null);
  return events;
}

export const executionHistoryQueryOptions = (executionId: string) =>
  queryOptions<HistoryEvent[]>({
    queryKey: ['/api/executions', executionId, 'events'],
    queryFn: () => fetchExecutionHistory(executionId),
    // The log grows while the execution is used: each opening reads it again.
    staleTime: 0,
  });

export function useExecutionHistory(executionId: string | null) {
  return useQuery({ ...executionHistoryQueryOptions(executionId ?? ''), enabled: executionId !== null });
}
