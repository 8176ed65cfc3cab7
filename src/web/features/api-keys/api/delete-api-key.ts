import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { apiKeysQueryOptions } from './get-api-keys';
import { usageQueryOptions } from './get-usage';

export const deleteApiKey = (keyId: string) => api.delete(`/api/user/api-keys/${keyId}`);

export function useDeleteApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteApiKey,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: apiKeysQueryOptions.queryKey }),
        queryClient.invalidateQueries({ queryKey: usageQueryOptions.queryKey }),
      ]),
  });
}
