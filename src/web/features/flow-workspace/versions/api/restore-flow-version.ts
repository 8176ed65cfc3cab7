import { useMutation, useQueryClient } from '@tanstack/react-query';
import { flowVersions as t } from '@/features/flow-workspace/strings';
import { answerOf, client } from '@/lib/api-client';
import { flowQueryOptions } from '@/lib/flow-query';
import { flowsQueryOptions } from '@/lib/flows-query';
import { stepsQueryOptions } from '@/lib/steps-query';
import { flowVersionQueryOptions } from './get-flow-version';
import { flowVersionsQueryOptions } from './get-flow-versions';

export const restoreFlowVersion = async (flowId: string, version: number) =>
  answerOf(
    await client.POST('/api/flows/{id}/restore/{version}', {
      params: { path: { id: flowId, version } },
    }),
  );

/**
 * Makes the flow as it stood at a version its newest version; the workspace's flow and steps become the
 * restored ones, so the editor shows the restored prompts.
 */
export function useRestoreFlowVersion(flowId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (version: number) => restoreFlowVersion(flowId, version),
    meta: { errorToast: { title: t.restoreFailedTitle, messageOr: t.restoreFailed } },
    onSuccess: async (restored) => {
      queryClient.setQueryData(flowVersionQueryOptions(flowId, restored.version).queryKey, restored);
      // The restored flow is at the version the restore made.
      queryClient.setQueryData(flowQueryOptions(flowId).queryKey, {
        ...restored.flow,
        version: restored.version,
      });
      queryClient.setQueryData(stepsQueryOptions(flowId).queryKey, restored.steps);
      for (const { queryKey } of [flowQueryOptions(flowId), stepsQueryOptions(flowId)]) {
        void queryClient.invalidateQueries({ queryKey, exact: true });
      }
      // The list shows the flow's name, description and step count.
      void queryClient.invalidateQueries({ queryKey: flowsQueryOptions.queryKey, exact: true });
      // The restore is done once the versions list has the new version, so the screen can choose it.
      await queryClient.invalidateQueries({
        queryKey: flowVersionsQueryOptions(flowId).queryKey,
        exact: true,
      });
    },
  });
}
