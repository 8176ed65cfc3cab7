import { useMutation } from '@tanstack/react-query';
import { type AnswerOf, answerOf, client } from '@/lib/api-client';
import { exportFlow as t } from '../strings';

export type FlowExport = AnswerOf<'/api/flows/{id}/export'>;

export const exportFlow = async (flowId: string) =>
  answerOf(await client.GET('/api/flows/{id}/export', { params: { path: { id: flowId } } }));

/** Asked for on demand and never cached: the steps may have changed since the last export. */
export function useExportFlow() {
  return useMutation({
    mutationFn: exportFlow,
    meta: { errorToast: { title: t.failedTitle, messageOr: t.failed } },
  });
}
