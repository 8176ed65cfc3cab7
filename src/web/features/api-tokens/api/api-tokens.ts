import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type AnswerOf, answerOf, type BodyOf, client } from '@/lib/api-client';
import { apiTokens as t } from '../strings';

/** A token as its maker sees it: never the token itself. */
export type ApiToken = AnswerOf<'/api/user/tokens'>[number];
export type NewApiToken = BodyOf<'/api/user/tokens', 'post'>;
/** A token just made: with the token itself, shown this once. */
export type MadeApiToken = AnswerOf<'/api/user/tokens', 'post'>;

export const apiTokensQueryOptions = queryOptions({
  queryKey: ['/api/user/tokens'],
  queryFn: async ({ signal }) => answerOf(await client.GET('/api/user/tokens', { signal })),
  retry: false,
  // Last use changes with every script's calls: opening the page shows it as it is now.
  refetchOnMount: 'always',
});

export function useApiTokens() {
  return useQuery(apiTokensQueryOptions);
}

export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: NewApiToken) => answerOf(await client.POST('/api/user/tokens', { body })),
    meta: { errorToast: { messageOr: t.createFailed } },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokensQueryOptions.queryKey }),
  });
}

export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) =>
      answerOf(await client.DELETE('/api/user/tokens/{id}', { params: { path: { id } } })),
    meta: { errorToast: { description: t.revokeFailed } },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokensQueryOptions.queryKey }),
  });
}
