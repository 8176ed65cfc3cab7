import { useMutation, useQueryClient } from '@tanstack/react-query';
import { answerOf, client } from '@/lib/api-client';
import { executionQueryKey } from '@/lib/execution-query';
import type { Execution } from '@/lib/execution-stream';
import { toasts } from '@/lib/strings';

export const deleteResult = async (resultId: string) =>
  answerOf(await client.DELETE('/api/step-results/{id}', { params: { path: { id: resultId } } }));

/**
 * Deletes a result: it leaves the execution at once; the ResultDeleted event that records it (and makes
 * the text a rejected idea) arrives by push or poll and says the same.
 */
export function useDeleteResult(executionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteResult,
    meta: { errorToast: { title: toasts.resultDeleteFailedTitle, messageOr: toasts.resultDeleteFailed } },
    onSuccess: (_, resultId) => {
      queryClient.setQueryData<Execution>(executionQueryKey(executionId), (execution) =>
        execution ? { ...execution, results: execution.results.filter((r) => r.id !== resultId) } : execution,
      );
    },
  });
}
