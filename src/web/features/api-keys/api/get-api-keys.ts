import { queryOptions, useQuery } from '@tanstack/react-query';

/** An own API key as its owner sees it: never the key itself. */
export interface ApiKey {
  id: string;
  keyName: string;
  keyType: string;
  isActive: boolean;
  createdAt: string;
  lastUsed: string | null;
}

// This read is never retried: a 401 here means signed out, at once.
export const apiKeysQueryOptions = queryOptions<ApiKey[]>({ queryKey: ['/api/user/api-keys'], retry: false });

export function useApiKeys() {
  return useQuery(apiKeysQueryOptions);
}
