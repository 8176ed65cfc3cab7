import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SuggestionRecord } from '../../../../../domain/flow-suggestions';

/** The flow's suggestion records, newest first; read afresh each time the dialog opens. */
export const suggestionsQueryOptions = (flowId: string) =>
  queryOptions<SuggestionRecord[]>({ queryKey: ['/api/flows', flowId, 'suggestions'], staleTime: 0 });

export function useSuggestions(flowId: string, enabled: boolean) {
  return useQuery({ ...suggestionsQueryOptions(flowId), enabled });
}
