import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { apiKeys as t } from '../strings';
import { type ApiKey, apiKeysQueryOptions } from './get-api-keys';
import { usageQueryOptions } from './get-usage';
import { isUnauthorized } from './unauthorized';

export interface AddApiKeyInput {
  keyName: string;
  apiKey: string;
}

/** A key just saved, and what Gemini said of it (a key it refuses is not saved: the call fails). */
export interface AddedApiKey extends ApiKey {
  check: { outcome: 'accepted' | 'unchecked'; message: string | null };
}

export const addApiKey = (input: AddApiKeyInput) =>
  api.post<AddedApiKey>('/api/user/api-keys', { ...input, keyType: 'gemini' });

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
