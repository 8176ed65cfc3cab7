import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { WorkflowJsonInput } from '../../../../domain/workflow-json';
import { exportFlow as t } from '../strings';

export interface FlowExport {
  workflow: WorkflowJsonInput;
}

export const exportFlow = (flowId: string) => api.get<FlowExport>(`/api/flows/${flowId}/export`);

/** Asked for on demand and never cached: the steps may have changed since the last export. */
export function useExportFlow() {
  return useMutation({
    mutationFn: exportFlow,
    meta: { errorToast: { title: t.failedTitle, messageOr: t.failed } },
  });
}
