import { useMutation, useQueryClient } from '@tanstack/react-query';
import { answerOf, client } from '@/lib/api-client';
import { apiKeys as t } from '../strings';
import { apiKeysQueryOptions } from './get-api-keys';
import { usageQueryOptions } from './get-usage';
import { isUnauthorized } from './unauthorized';

export const deleteApiKey = async (keyId: string) =>
  answerOf(await client.DELETE('/api/user/api-keys/{id}', { params: { path: { id: keyId } } }));

export function useDeleteApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteApiKey,
    // A signed-out failure is told by the page, which then opens the sign-in page.
    meta: { errorToast: (error) => (isUnauthorized(error) ? false : { description: t.deleteFailed }) },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: apiKeysQueryOptions.queryKey }),
        queryClient.invalidateQueries({ queryKey: usageQueryOptions.queryKey }),
      ]),
  });
}
