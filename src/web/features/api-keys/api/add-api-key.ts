import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type AnswerOf, answerOf, type BodyOf, client } from '@/lib/api-client';
import { apiKeys as t } from '../strings';
import { apiKeysQueryOptions } from './get-api-keys';
import { usageQueryOptions } from './get-usage';
import { isUnauthorized } from './unauthorized';

export type AddApiKeyInput = BodyOf<'/api/user/api-keys', 'post'>;

/** A key just saved, and what its provider said of it (a key it refuses is not saved: the call fails). */
export type AddedApiKey = AnswerOf<'/api/user/api-keys', 'post'>;

export const addApiKey = async (input: AddApiKeyInput) =>
  answerOf(await client.POST('/api/user/api-keys', { body: input }));

/** A new active key makes usage unlimited, so both the list and the usage are read again. */
export function useAddApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addApiKey,
    // A signed-out failure is told by the page, which then opens the sign-in page.
    meta: { errorToast: (error) => (isUnauthorized(error) ? false : { messageOr: t.addFailed }) },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: apiKeysQueryOptions.queryKey }),
        queryClient.invalidateQueries({ queryKey: usageQueryOptions.queryKey }),
      ]),
  });
}
