import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { executionSocket } from '../../../lib/execution-socket';

/**
 * Keeps an open workspace of the flow true to what other tabs, windows and people do: a change of the flow
 * or its steps (pushed as the flow's events) and an execution of it started elsewhere (a first Execute,
 * "Chạy lại từ đây") read the flow again, so the tab shows the steps as they are and moves to the flow's
 * latest execution. Watched from now; after a reconnect what was missed is replayed, and read again too.
 */
export function useLiveFlow(flowId: string) {
  const queryClient = useQueryClient();
  useEffect(() => {
    let position: number | undefined;
    const readAgain = () => void queryClient.invalidateQueries({ queryKey: ['/api/flows', flowId] });
    return executionSocket().watch(
      { flowId },
      {
        after: () => position,
        onMessage: (message) => {
          if (message.type === 'event') {
            position = message.position;
            readAgain();
          } else if (message.type === 'up-to-date') {
            position = message.position;
          } else if (message.type === 'execution-started') {
            readAgain();
          }
        },
      },
    );
  }, [flowId, queryClient]);
}
