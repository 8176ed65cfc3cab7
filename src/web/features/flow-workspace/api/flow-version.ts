import type { QueryClient } from '@tanstack/react-query';
import { type Answered, ApiError, answerOf } from '@/lib/api-client';
import { entityTagOf, versionOfEntityTag } from '@/lib/entity-tag';
import type { ErrorToastMeta, FailureToast } from '@/lib/failure-toast';
import { flowQueryOptions, type ReadFlow } from '@/lib/flow-query';
import { editMode } from '../strings';

/**
 * A write on the flow or one of its steps (a step's version is its flow's), made on the version of the flow
 * this tab last read: it goes as If-Match, so a change made elsewhere since is refused (412), never
 * overwritten. Answers what the write answered and the flow's version after it (null: no ETag answered).
 */
export async function writeOnReadVersion<T>(
  queryClient: QueryClient,
  flowId: string,
  send: (condition: { 'If-Match'?: string }) => Promise<Answered<T>>,
): Promise<{ answer: T; version: number | null }> {
  const key = flowQueryOptions(flowId).queryKey;
  // A read of the flow on its way (after a step was added here, or a change pushed from elsewhere) is waited
  // for: the write is made on the version it brings, not on the one it replaces.
  if (queryClient.getQueryState(key)?.fetchStatus === 'fetching') {
    await queryClient.refetchQueries({ queryKey: key, exact: true }, { cancelRefetch: false });
  }
  const expected = queryClient.getQueryData(key)?.version ?? null;
  const answered = await send(expected === null ? {} : { 'If-Match': entityTagOf(expected) });
  const answer = answerOf(answered);
  const after = versionOfEntityTag(answered.response.headers.get('etag'));
  // Made on the version the tab holds, this write is the only change since: the tab's copy is at the new one.
  if (expected !== null && after !== null) {
    queryClient.setQueryData<ReadFlow>(key, (flow) =>
      flow?.version === expected ? { ...flow, version: after } : flow,
    );
  }
  return { answer, version: after };
}

/** The write was made on a version of the flow that is no longer its newest. */
export const isVersionMismatch = (error: unknown) => error instanceof ApiError && error.status === 412;

/** After a version mismatch: the flow and its steps are read again, so the next write is made on them. */
export function readFlowAgainOnMismatch(queryClient: QueryClient, flowId: string, error: unknown) {
  if (isVersionMismatch(error)) void queryClient.invalidateQueries({ queryKey: ['/api/flows', flowId] });
}

const versionMismatchToast: FailureToast = {
  title: editMode.versionMismatchTitle,
  description: editMode.versionMismatch,
};

/** A write's failure toast, which says a version mismatch as one (false: its caller tells failures itself). */
export function sayingVersionMismatch(toast: ErrorToastMeta): ErrorToastMeta {
  if (toast === false) return false;
  return (error) =>
    isVersionMismatch(error) ? versionMismatchToast : typeof toast === 'function' ? toast(error) : toast;
}
