import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { recommendationsQueryOptions } from './get-recommendations';

/** The flow made from a recommendation, with the steps it was given. */
export interface ImplementedFlow {
  id: string;
  name: string;
  description: string;
  steps: Array<{ id: string; order: number; name: string }>;
}

export const implementRecommendation = (id: string) =>
  api.post<ImplementedFlow>(`/api/recommendations/${id}/implement`);

// The flows list caches under its URL; the new flow must be in it when the user goes there.
const FLOWS_QUERY_KEY = ['/api/flows'];

export function useImplementRecommendation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: implementRecommendation,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: recommendationsQueryOptions.queryKey }),
        queryClient.invalidateQueries({ queryKey: FLOWS_QUERY_KEY }),
      ]),
  });
}
