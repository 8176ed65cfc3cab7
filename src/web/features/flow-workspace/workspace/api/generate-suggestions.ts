import { useMutation, useQueryClient } from '@tanstack/react-query';
import { suggestions as t } from '@/features/flow-workspace/strings';
import { api } from '@/lib/api-client';
import type { SuggestionRecord } from '../../../../../domain/flow-suggestions';
import { suggestionsQueryOptions } from './get-suggestions';

export const generateSuggestions = (flowId: string) =>
  api.post<SuggestionRecord>(`/api/flows/${flowId}/suggestions`);

/** A new record goes on top of the list, as the server orders it. */
export function useGenerateSuggestions(flowId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => generateSuggestions(flowId),
    meta: { errorToast: { messageOr: t.generateFailed } },
    onSuccess: (record) =>
      queryClient.setQueryData(suggestionsQueryOptions(flowId).queryKey, (records = []) => [
        record,
        ...records.filter((r) => r.id !== record.id),
      ]),
  });
}
