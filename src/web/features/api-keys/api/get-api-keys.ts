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

export const apiKeysQueryOptions = queryOptions<ApiKey[]>({ queryKey: ['/api/user/api-keys'] });

export function useApiKeys() {
  return useQuery(apiKeysQueryOptions);
}
