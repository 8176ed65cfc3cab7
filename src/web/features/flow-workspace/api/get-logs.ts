import { queryOptions, useQuery } from '@tanstack/react-query';

/** One model request as the AI request log shows it. */
export interface AiRequestLog {
  id: string;
  stepOrder: number;
  finalPrompt: string;
  userInput: string;
  aiResponse: string | null;
  success: boolean | null;
  errorMessage: string | null;
  model: string | null;
  keySource: string | null;
  requestedAt: string;
}

export const logsQueryOptions = (flowId: string) =>
  queryOptions<AiRequestLog[]>({ queryKey: ['/api/flows', flowId, 'logs'], staleTime: 0 });

export function useLogs(flowId: string, enabled: boolean) {
  return useQuery({ ...logsQueryOptions(flowId), enabled });
}
