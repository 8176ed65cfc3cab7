import { queryOptions, useQuery } from '@tanstack/react-query';
import type { KeySource, UnreviewedResultUse } from '../../../../../domain/execution/types';

/** One model request as the AI request log shows it. */
export interface AiRequestLog {
  id: string;
  stepOrder: number;
  finalPrompt: string;
  userInput: string;
  /** Each [[label]] the prompt referenced and the text that replaced it. */
  stepLabels: Record<string, string>;
  /** Labels left as written: nothing earlier answered to them. */
  unresolvedLabels: string[];
  /** Results the prompt used while nobody had approved them, as recorded with the run. */
  unreviewedResults: UnreviewedResultUse[];
  aiResponse: string | null;
  success: boolean | null;
  errorMessage: string | null;
  model: string | null;
  keySource: KeySource | null;
  requestedAt: string;
  /** The StepRunStarted event the request belongs to: `npm run events -- show <executionId>` lists it. */
  startedEvent: { id: string; position: number; executionId: string; commandId: string | null };
}

export const logsQueryOptions = (flowId: string) =>
  queryOptions<AiRequestLog[]>({ queryKey: ['/api/flows', flowId, 'logs'], staleTime: 0 });

export function useLogs(flowId: string, enabled: boolean) {
  return useQuery({ ...logsQueryOptions(flowId), enabled });
}
