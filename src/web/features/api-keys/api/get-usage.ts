import { queryOptions, useQuery } from '@tanstack/react-query';

export interface Usage {
  /** -1: unlimited. */
  remainingSteps: number;
  usedSteps: number;
}

export const usageQueryOptions = queryOptions<Usage>({
  queryKey: ['/api/user/usage'],
  // Step runs elsewhere change it; opening the page shows the count as it is now.
  refetchOnMount: 'always',
});

export function useUsage() {
  return useQuery(usageQueryOptions);
}
