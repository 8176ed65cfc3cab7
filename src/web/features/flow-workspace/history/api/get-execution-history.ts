import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { type AnswerOf, answerOf, client } from '@/lib/api-client';
import { pagedListParams, pageQuery } from '@/lib/paged-list';
import type { ExecutionEvent } from '../../../../../domain/execution/types';

/**
 * One event of an execution's log as the history API gives it: what happened, when, and who did it. What
 * happened stays the domain's ExecutionEvent: the screen folds the events with the server's own `evolve`.
 */
export type HistoryEvent = ExecutionEvent & Omit<Exclude<LoggedItem, UnreadableEvent>, 'type' | 'data'>;

type LoggedItem = AnswerOf<'/api/executions/{id}/events'>['items'][number];

/**
 * An event of the log the server could not read (rewritten outside the app): its stored type and data, raw.
 * The screen shows it as unreadable and folds nothing from it.
 */
export type UnreadableEvent = Extract<LoggedItem, { readable: false }>;

/** An entry of the log: an event, or one that could not be read. */
export type LoggedEvent = HistoryEvent | UnreadableEvent;

export const isUnreadable = (event: LoggedEvent): event is UnreadableEvent =>
  'readable' in event && event.readable === false;

/** A page of the log: the largest the API gives, since the screen folds the events it has read. */
const PAGE_SIZE = 200;

/**
 * The log of an execution, oldest first, page by page as its timeline scrolls: the screen folds the events
 * read so far to any point among them.
 */
export const executionHistoryQueryOptions = (executionId: string) =>
  infiniteQueryOptions({
    queryKey: ['/api/executions', executionId, 'events'],
    queryFn: async ({ pageParam, signal }) => {
      const page = answerOf(
        await client.GET('/api/executions/{id}/events', {
          params: { path: { id: executionId }, query: pageQuery(pageParam, PAGE_SIZE) },
          signal,
        }),
      );
      return { items: page.items as LoggedEvent[], nextCursor: page.nextCursor };
    },
    ...pagedListParams,
    // The log grows while the execution is used: each opening reads it again.
    staleTime: 0,
  });

export function useExecutionHistory(executionId: string | null) {
  return useInfiniteQuery({
    ...executionHistoryQueryOptions(executionId ?? ''),
    enabled: executionId !== null,
  });
}
