import { queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { type AnswerOf, answerOf, type BodyOf, client, type Unpaged, unpaged } from '@/lib/api-client';
import { executionSocket } from '@/lib/execution-socket';
import { pageQuery } from '@/lib/paged-list';
import { experimentPage } from '../strings';

export type Experiment = AnswerOf<'/api/experiments/{id}'>;
export type ExperimentRun = Experiment['runs'][number];
export type ExperimentSummary = Unpaged<AnswerOf<'/api/experiments'>>[number];
/** The comparison as JSON (the route also answers CSV, a download). */
export type Comparison = Exclude<AnswerOf<'/api/experiments/compare'>, string>;
export type CompareRow = Comparison['rows'][number];
export type CompareCell = CompareRow['cells'][number];
export type CompareSummary = Comparison['summaries'][number];
export type StartExperimentBody = BodyOf<'/api/experiments', 'post'>;
export type FlowVersionEntry = Unpaged<AnswerOf<'/api/flows/{id}/versions'>>[number];
export type FlowVersionView = AnswerOf<'/api/flows/{id}/versions/{version}'>;

/** An experiment has ended once no run of it will start or go on. */
export const hasEnded = (status: string) => status === 'completed' || status === 'stopped';

/** While an experiment runs, its list reads it again this often (ms). */
export const LIVE_REFRESH_MS = 1_000;
/** While an experiment runs, its page (kept live by its pushed events) reads it again this often (ms) as well. */
export const FALLBACK_REFRESH_MS = 5_000;

export const experimentsQueryOptions = (flowId: string) =>
  queryOptions({
    queryKey: ['/api/experiments', { flowId }],
    queryFn: async ({ signal }) =>
      unpaged(answerOf(await client.GET('/api/experiments', { params: { query: { flowId } }, signal }))),
    staleTime: 0,
  });

/** The flow's experiments, newest first; read again every second while one of them runs. */
export function useExperiments(flowId: string) {
  return useQuery({
    ...experimentsQueryOptions(flowId),
    refetchInterval: (query) =>
      query.state.data?.some((experiment) => experiment.completedAt === null && experiment.stoppedAt === null)
        ? LIVE_REFRESH_MS
        : false,
  });
}

export const experimentQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['/api/experiments', id],
    queryFn: async ({ signal }) =>
      answerOf(await client.GET('/api/experiments/{id}', { params: { path: { id } }, signal })),
    staleTime: 0,
  });

/**
 * One experiment with its runs, kept live: each event of its stream pushed over the websocket reads it again
 * (its runs' starts and ends, a stop, scores); while it runs it is also read every few seconds, in case the
 * socket is away.
 */
export function useExperiment(id: string) {
  const queryClient = useQueryClient();
  const query = useQuery({
    ...experimentQueryOptions(id),
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === undefined || hasEnded(status) ? false : FALLBACK_REFRESH_MS;
    },
  });
  const version = query.data?.version;
  const known = useRef<number | undefined>(undefined);
  known.current = version;
  useEffect(() => {
    if (id === '') return;
    return executionSocket().watch(
      { experimentId: id },
      {
        after: () => known.current ?? 0,
        onMessage: (message) => {
          if (message.type === 'event' && message.position > (known.current ?? 0))
            void queryClient.invalidateQueries({ queryKey: ['/api/experiments', id] });
        },
      },
    );
  }, [id, queryClient]);
  return query;
}

/** Rows of a comparison the screen asks for at a time: the most one answer of the API holds. */
export const COMPARE_PAGE_SIZE = 200;

/**
 * The experiments side by side, the first the baseline: the summaries (whole, from the first answer) and the
 * rows read so far, page by page as the grid scrolls (`fetchNextPage` while `hasNextPage`).
 */
export function useComparison(ids: readonly string[]) {
  const query = useInfiniteQuery({
    queryKey: ['/api/experiments', 'compare', ids.join(',')],
    queryFn: async ({ pageParam, signal }) =>
      answerOf(
        await client.GET('/api/experiments/compare', {
          params: { query: { ids: ids.join(','), ...pageQuery(pageParam, COMPARE_PAGE_SIZE) } },
          signal,
        }),
      ) as Comparison,
    initialPageParam: null as string | null,
    getNextPageParam: (last: Comparison) => last.nextCursor,
    enabled: ids.length > 0,
    staleTime: 0,
  });
  const pages = query.data?.pages;
  const first = pages?.[0];
  const data: Comparison | undefined = first
    ? { ...first, rows: pages.flatMap((page) => page.rows), nextCursor: pages.at(-1)?.nextCursor ?? null }
    : undefined;
  return { ...query, data };
}

/** Where the comparison of these experiments downloads as CSV. */
export const compareCsvUrl = (ids: readonly string[]) =>
  `/api/experiments/compare?${new URLSearchParams({ ids: ids.join(','), format: 'csv' })}`;

/** Every version of the flow, oldest first (the whole list: no page asked). */
export function useFlowVersionList(flowId: string) {
  return useQuery({
    queryKey: ['/api/flows', flowId, 'versions', 'all'],
    queryFn: async ({ signal }) =>
      unpaged(
        answerOf(await client.GET('/api/flows/{id}/versions', { params: { path: { id: flowId } }, signal })),
      ),
    staleTime: 0,
  });
}

/** The flow and its steps as they stood at one version (a version never changes). */
export function useFlowVersionView(flowId: string, version: number | null) {
  return useQuery({
    queryKey: ['/api/flows', flowId, 'versions', version ?? 0],
    queryFn: async ({ signal }) =>
      answerOf(
        await client.GET('/api/flows/{id}/versions/{version}', {
          params: { path: { id: flowId, version: version ?? 0 } },
          signal,
        }),
      ),
    enabled: version !== null && version > 0,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

function useInvalidateExperiments() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ['/api/experiments'] });
}

/** Starts an experiment; a refusal is shown beside the form, not as a toast. */
export function useStartExperiment() {
  const invalidate = useInvalidateExperiments();
  return useMutation({
    mutationFn: async (body: StartExperimentBody) =>
      answerOf(await client.POST('/api/experiments', { body })),
    meta: { errorToast: false },
    onSuccess: invalidate,
  });
}

export function useStopExperiment(id: string) {
  const invalidate = useInvalidateExperiments();
  return useMutation({
    mutationFn: async () =>
      answerOf(await client.POST('/api/experiments/{id}/stop', { params: { path: { id } }, body: {} })),
    meta: { errorToast: { messageOr: experimentPage.stopFailed } },
    onSuccess: invalidate,
  });
}

export function useScoreAgain(id: string) {
  const invalidate = useInvalidateExperiments();
  return useMutation({
    mutationFn: async () =>
      answerOf(
        await client.POST('/api/experiments/{id}/score-again', { params: { path: { id } }, body: {} }),
      ),
    meta: { errorToast: { messageOr: experimentPage.scoreAgainFailed } },
    onSuccess: invalidate,
  });
}

export function usePromote(id: string) {
  const invalidate = useInvalidateExperiments();
  return useMutation({
    mutationFn: async () =>
      answerOf(await client.POST('/api/experiments/{id}/promote', { params: { path: { id } }, body: {} })),
    meta: { errorToast: { messageOr: experimentPage.promoteFailed } },
    onSuccess: invalidate,
  });
}
