import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { versionOfEntityTag } from '@/lib/entity-tag';
import type { Flow } from '../../../../domain/flow';

/** The flow as this tab read it, with the version its ETag named (null: none answered). */
export type ReadFlow = Flow & { version: number | null };

export const flowQueryOptions = (flowId: string) =>
  queryOptions<ReadFlow>({
    queryKey: ['/api/flows', flowId],
    queryFn: async () => {
      let version: number | null = null;
      const flow = await api.get<Flow>(`/api/flows/${flowId}`, {
        onHeaders: (headers) => {
          version = versionOfEntityTag(headers.get('etag'));
        },
      });
      return { ...flow, version };
    },
  });

export function useFlow(flowId: string) {
  return useQuery(flowQueryOptions(flowId));
}
