import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { executionSocket } from '@/lib/execution-socket';
import type { MasterEvent } from '../../../../domain/master-mode/events';
import { masterSessionQueryOptions } from './get-master-session';

/**
 * Keeps a master mode session current by push instead of polling: every event of its stream (a row run
 * started or ended, an Execute All, a reset, from any tab or server process) reads the session again and is
 * handed to `onEvent`, and an ai row's tokens show in its result while the model writes. Answers the text so
 * far by row id.
 */
export function useLiveMasterSession(
  sessionId: string,
  version: number | undefined,
  onEvent?: (event: MasterEvent) => void,
): Record<string, string> {
  const queryClient = useQueryClient();
  const [streaming, setStreaming] = useState<Record<string, string>>({});
  const position = useRef(0);
  const latestOnEvent = useRef(onEvent);
  latestOnEvent.current = onEvent;
  const ready = version !== undefined;
  if (version !== undefined && version > position.current) position.current = version;

  useEffect(() => {
    if (!ready) return;
    const topic = { masterSessionId: sessionId };
    const rowOfRun = new Map<string, string>();
    const refresh = () => void queryClient.invalidateQueries(masterSessionQueryOptions(sessionId));
    return executionSocket().watch(topic, {
      after: () => position.current,
      onMessage: (message) => {
        if (message.type === 'event') {
          position.current = Math.max(position.current, message.position);
          const event = message.event as MasterEvent;
          if (event.type === 'MasterRowRunStarted') rowOfRun.set(event.data.runId, event.data.stepId);
          if (event.type === 'MasterRowRunSucceeded' || event.type === 'MasterRowRunFailed') {
            const rowId = rowOfRun.get(event.data.runId);
            if (rowId) setStreaming(({ [rowId]: _ended, ...rest }) => rest);
          }
          refresh();
          latestOnEvent.current?.(event);
        } else if (message.type === 'delta') {
          const rowId = rowOfRun.get(message.runId);
          if (rowId) setStreaming((texts) => ({ ...texts, [rowId]: (texts[rowId] ?? '') + message.text }));
        } else if (message.type === 'up-to-date') {
          // The server follows with each running row's whole text so far: start the texts afresh.
          setStreaming({});
        }
      },
    });
  }, [sessionId, ready, queryClient]);

  return streaming;
}
