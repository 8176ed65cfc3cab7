import { queryOptions, useQuery } from '@tanstack/react-query';
import { type AnswerOf, answerOf, client, type Unpaged, unpaged } from '@/lib/api-client';

export type Model = Unpaged<AnswerOf<'/api/models'>>[number];

/** The models a step or a master mode row may name, the server's default first; they change only with its configuration. */
export const modelsQueryOptions = () =>
  queryOptions<Model[]>({
    queryKey: ['/api/models'],
    queryFn: async ({ signal }) => unpaged(answerOf(await client.GET('/api/models', { signal }))),
    staleTime: 5 * 60_000,
  });

export function useModels() {
  return useQuery(modelsQueryOptions());
}
