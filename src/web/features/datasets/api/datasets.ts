import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type AnswerOf, answerOf, type BodyOf, client, unpaged } from '@/lib/api-client';
import { addRun, datasetPage, datasets as t } from '../strings';

export type Dataset = AnswerOf<'/api/datasets/{id}'>;
export type DatasetItem = Dataset['items'][number];
export type ListedDataset = ReturnType<typeof unpaged<AnswerOf<'/api/datasets'>>>[number];
export type NewItems = BodyOf<'/api/datasets/{id}/items', 'post'>;

export const datasetsQueryOptions = (flowId: string) =>
  queryOptions({
    queryKey: ['/api/datasets', { flowId }],
    queryFn: async ({ signal }) =>
      unpaged(answerOf(await client.GET('/api/datasets', { params: { query: { flowId } }, signal }))),
  });

/** The flow's datasets, newest first. */
export function useDatasets(flowId: string) {
  return useQuery(datasetsQueryOptions(flowId));
}

export const datasetQueryOptions = (id: string, version?: number) =>
  queryOptions({
    queryKey: ['/api/datasets', id, version ?? 'latest'],
    queryFn: async ({ signal }) =>
      answerOf(
        await client.GET('/api/datasets/{id}', {
          params: { path: { id }, query: version === undefined ? {} : { version } },
          signal,
        }),
      ),
  });

/** The dataset with its items, now or as of `version`. */
export function useDataset(id: string, version?: number) {
  // No id yet (another read names it): nothing to read.
  return useQuery({ ...datasetQueryOptions(id, version), enabled: id !== '' });
}

/** After a change, every read of datasets is read again (the lists, the dataset's versions). */
function useInvalidateDatasets() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ['/api/datasets'] });
}

export function useCreateDataset() {
  const invalidate = useInvalidateDatasets();
  return useMutation({
    mutationFn: async (body: { name: string; flowId: string }) =>
      answerOf(await client.POST('/api/datasets', { body })),
    meta: { errorToast: { messageOr: t.createFailed } },
    onSuccess: invalidate,
  });
}

export function useAddItems(id: string) {
  const invalidate = useInvalidateDatasets();
  return useMutation({
    mutationFn: async (body: NewItems) =>
      answerOf(await client.POST('/api/datasets/{id}/items', { params: { path: { id } }, body })),
    meta: { errorToast: { messageOr: datasetPage.addFailed } },
    onSuccess: invalidate,
  });
}

/** A CSV file's text, sent as it is (Content-Type: text/csv). */
export function useUploadCsv(id: string) {
  const invalidate = useInvalidateDatasets();
  return useMutation({
    mutationFn: async (csv: string) =>
      answerOf(
        await client.POST('/api/datasets/{id}/items', {
          params: { path: { id } },
          body: csv,
          bodySerializer: (text) => text as string,
          headers: { 'content-type': 'text/csv' },
        }),
      ),
    meta: { errorToast: { messageOr: datasetPage.csvFailed } },
    onSuccess: invalidate,
  });
}

export function useAddRun() {
  const invalidate = useInvalidateDatasets();
  return useMutation({
    mutationFn: async ({ datasetId, executionId }: { datasetId: string; executionId: string }) =>
      answerOf(
        await client.POST('/api/datasets/{id}/items/from-execution', {
          params: { path: { id: datasetId } },
          body: { executionId },
        }),
      ),
    meta: { errorToast: { messageOr: addRun.failed } },
    onSuccess: invalidate,
  });
}

export function useSetArchived(id: string) {
  const invalidate = useInvalidateDatasets();
  return useMutation({
    mutationFn: async ({ itemId, archived }: { itemId: string; archived: boolean }) =>
      answerOf(
        archived
          ? await client.POST('/api/datasets/{id}/items/{itemId}/archive', {
              params: { path: { id, itemId } },
            })
          : await client.POST('/api/datasets/{id}/items/{itemId}/restore', {
              params: { path: { id, itemId } },
            }),
      ),
    meta: { errorToast: { messageOr: datasetPage.archiveFailed } },
    onSuccess: invalidate,
  });
}
