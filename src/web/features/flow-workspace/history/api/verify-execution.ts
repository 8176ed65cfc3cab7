import { queryOptions, useQuery } from '@tanstack/react-query';
import { type AnswerOf, answerOf, client } from '@/lib/api-client';

/** Whether an execution's stored events are still the ones the server appended, by their hashes. */
export type RecordCheck = AnswerOf<'/api/executions/{id}/verify'>;

export const executionCheckQueryOptions = (executionId: string) =>
  queryOptions<RecordCheck>({
    queryKey: ['/api/executions', executionId, 'verify'],
    queryFn: async ({ signal }) =>
      answerOf(
        await client.GET('/api/executions/{id}/verify', { params: { path: { id: executionId } }, signal }),
      ),
    // Checked again at each opening: the record may have been changed since.
    staleTime: 0,
  });

export function useExecutionCheck(executionId: string) {
  return useQuery(executionCheckQueryOptions(executionId));
}

/** Where an execution's audit file downloads from, in one of its formats. */
export const auditFileUrl = (executionId: string, format: 'json' | 'csv') =>
  `/api/executions/${encodeURIComponent(executionId)}/audit?format=${format}`;
