import { useMutation, useQueryClient } from '@tanstack/react-query';
import { answerOf, type BodyOf, client } from '@/lib/api-client';
import { executionQueryKey } from '@/lib/execution-query';
import type { Execution } from '@/lib/execution-stream';
import { toasts } from '@/lib/strings';

export type ResultChanges = BodyOf<'/api/step-results/{id}', 'put'>;

export const updateResult = async (resultId: string, changes: ResultChanges) =>
  answerOf(await client.PUT('/api/step-results/{id}', { params: { path: { id: resultId } }, body: changes }));

/**
 * Saves a change to a result. The answer is shown at once; the event that records it arrives by push or
 * poll with a higher version and says the same.
 */
export function useUpdateResult(executionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ resultId, changes }: { resultId: string; changes: ResultChanges }) =>
      updateResult(resultId, changes),
    meta: { errorToast: { description: toasts.resultUpdateFailed } },
    onSuccess: (saved) => {
      queryClient.setQueryData<Execution>(executionQueryKey(executionId), (execution) =>
        execution
          ? {
              ...execution,
              results: execution.results.map((r) =>
                r.id === saved.id
                  ? { ...r, result: saved.result, label: saved.label, approved: saved.approved }
                  : r,
              ),
            }
          : execution,
      );
    },
  });
}
