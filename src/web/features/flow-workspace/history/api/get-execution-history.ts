import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ExecutionEvent } from '../../../../../domain/execution/types';

/** One event of an execution's log as the history API gives it: what happened, when, and who did it. */
export type HistoryEvent = ExecutionEvent & {
  position: number;
  at: string;
  actor: { userId: string | null; name: string | null };
  commandId: string | null;
};

interface HistoryPage {
  items: HistoryEvent[];
  /** Where the next page starts; null on the last. */
  nextCursor: string | null;
}

/** The largest page the API gives. */
const PAGE_SIZE = 200;

/** The whole log of an execution, read page by page: the screen folds it to any point. */
async function fetchExecutionHistory(executionId: string): Promise<HistoryEvent[]> {
  const events: HistoryEvent[] = [];
  let cursor: string | null = null;
  do {
    const from: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
    const page: HistoryPage = await api.get<HistoryPage>(
      `/api/executions/${executionId}/events?limit=${PAGE_SIZE}${from}`,
    );
    events.push(...page.items);
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
