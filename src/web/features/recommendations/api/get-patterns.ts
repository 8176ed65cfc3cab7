import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PatternRecord } from '../../../../domain/workflow-recommendations';

export const patternsQueryOptions = queryOptions<PatternRecord[]>({ queryKey: ['/api/patterns'] });

export function usePatterns() {
  return useQuery(patternsQueryOptions);
}
