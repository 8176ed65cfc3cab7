import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Step } from '../../../../domain/flow';

export const stepsQueryOptions = (flowId: string) =>
  queryOptions<Step[]>({ queryKey: ['/api/flows', flowId, 'steps'] });

export function useSteps(flowId: string) {
  return useQuery(stepsQueryOptions(flowId));
}
