import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { type ExecutionWatcher, executionSocket } from '@/lib/execution-socket';

/**
 * What an open workspace does with the flow's live messages: a change of the flow or its steps (pushed as
 * the flow's events) and an execution of it started elsewhere (a first Execute, "Chạy lại từ đây") read the
 * flow again, so the tab shows the steps as they are and moves to the flow's latest execution. The flow is
 * watched from the moment the subscription holds, which is later than the page read it: whatever happened
 * in between (and, after a reconnect, while away) is caught by reading it again at each 'up-to-date'.
 */
export function flowWatcher(readAgain: () => void): ExecutionWatcher {
  let position: number | undefined;
  return {
    after: () => position,
    onMessage: (message) => {
      if (message.type === 'event') {
        position = message.position;
        readAgain();
      } else if (message.type === 'up-to-date') {
        position = message.position;
        readAgain();
      } else if (message.type === 'execution-started') {
        readAgain();
      }
    },
  };
}

/** Keeps an open workspace of the flow true to what other tabs, windows and people do. */
export function useLiveFlow(flowId: string) {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      executionSocket().watch(
        { flowId },
        flowWatcher(() => void queryClient.invalidateQueries({ queryKey: ['/api/flows', flowId] })),
      ),
    [flowId, queryClient],
  );
}
