import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Execution } from '@/lib/execution-stream';
import { toasts } from '@/lib/strings';
import type { StepResult } from '../../../../domain/execution/types';
import { executionQueryKey } from './get-execution';

export interface ResultChanges {
  result?: string;
  label?: string;
  approved?: boolean;
}

export const updateResult = (resultId: string, changes: ResultChanges) =>
  api.put<StepResult>(`/api/step-results/${resultId}`, changes);

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
