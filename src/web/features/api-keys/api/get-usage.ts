import { queryOptions, useQuery } from '@tanstack/react-query';

export interface Usage {
  /** -1: unlimited. */
  remainingSteps: number;
  usedSteps: number;
}

export const usageQueryOptions = queryOptions<Usage>({
  queryKey: ['/api/user/usage'],
  // This read is never retried, whatever the defaults become.
  retry: false,
  // Step runs elsewhere change it; opening the page shows the count as it is now.
  refetchOnMount: 'always',
});

export function useUsage() {
  return useQuery(usageQueryOptions);
}
