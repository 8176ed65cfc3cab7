import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { executionQueryKey, executionQueryOptions } from '@/lib/execution-query';
import { executionSocket } from '@/lib/execution-socket';
import { applyStreamEvent, type Execution, endedRunIds } from '@/lib/execution-stream';
import type { ExecutionEvent } from '../../../../domain/execution/types';

export interface LiveExecution {
  execution: Execution | null;
  /** Model text received so far, by runId, for runs still in progress. */
  streaming: Record<string, string>;
  /** Pushed events arrive: the socket is open and has caught up with this execution. */
  live: boolean;
  /** Its first read is under way. */
  loading: boolean;
  /** The server has no such execution for this user (or it could not be read). */
  missing: boolean;
}

/**
 * An execution kept current by push and by polling. Both write the same cache entry and the cached
 * `version` decides what is new, so they always agree. Events apply with the domain's own `evolve`.
 */
export function useLiveExecution(executionId: string | null | undefined): LiveExecution {
  const queryClient = useQueryClient();
  const query = useQuery({
    ...executionQueryOptions(executionId ?? '', queryClient),
    enabled: Boolean(executionId),
  });
  const [streams, setStreams] = useState<Record<string, string>>({});
  const [live, setLive] = useState(false);
  const ready = query.data !== undefined;

  useEffect(() => {
    if (!executionId || !ready) return;
    const key = executionQueryKey(executionId);
    const socket = executionSocket();
    // One catch-up read per gap, however many later events arrive before it answers.
    let resyncingFrom: number | null = null;
    const closed = socket.connected$.subscribe((connected) => {
      if (!connected) setLive(false);
    });
    const topic = { executionId };
    const stop = socket.watch(topic, {
      after: () => queryClient.getQueryData<Execution>(key)?.version ?? 0,
      onMessage: (message) => {
        switch (message.type) {
          case 'event': {
            const current = queryClient.getQueryData<Execution>(key);
            if (!current) return;
            const outcome = applyStreamEvent(current, message.position, message.event as ExecutionEvent);
            if (outcome.kind === 'applied') {
              resyncingFrom = null;
              queryClient.setQueryData(key, outcome.execution);
            } else if (outcome.kind === 'gap' && resyncingFrom !== outcome.after) {
              resyncingFrom = outcome.after;
              socket.resubscribe(topic, outcome.after);
            }
            const ended = endedRunIds(message.event as ExecutionEvent);
            if (ended === 'all') setStreams({});
            else if (ended.length > 0) {
              setStreams((previous) => {
                const next = { ...previous };
                for (const runId of ended) delete next[runId];
                return next;
              });
            }
            return;
          }
          case 'delta':
            setStreams((previous) => ({
              ...previous,
              [message.runId]: (previous[message.runId] ?? '') + message.text,
            }));
            return;
          case 'up-to-date':
            // The server follows with each running step's whole text so far: start the texts afresh.
            setStreams({});
            resyncingFrom = null;
            setLive(true);
            return;
          case 'error':
            setLive(false);
            return;
        }
      },
    });
    return () => {
      closed.unsubscribe();
      stop();
      setLive(false);
    };
  }, [executionId, ready, queryClient]);

  const execution = query.data ?? null;
  // A poll may show a run ended before its event is pushed; its streamed text is then stale.
  const streaming = useMemo(() => {
    if (!execution) return {};
    const ended = new Set(execution.runs.filter((run) => run.status !== 'running').map((run) => run.runId));
    return Object.fromEntries(Object.entries(streams).filter(([runId]) => !ended.has(runId)));
  }, [execution, streams]);

  return {
    execution,
    streaming,
    live,
    loading: query.isLoading,
    missing: execution === null && query.isError,
  };
}
