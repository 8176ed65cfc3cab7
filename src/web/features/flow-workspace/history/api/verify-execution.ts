import { queryOptions, useQuery } from '@tanstack/react-query';
import { type AnswerOf, answerOf, client } from '@/lib/api-client';
import { history as t } from '@/lib/strings';
import { firstUnverifiedPosition } from '../../../../../domain/execution/record-trust';

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
export const auditFileUrl = (executionId: string, format: 'json' | 'csv' | 'bundle') =>
  `/api/executions/${encodeURIComponent(executionId)}/audit?format=${format}`;

/** The latest signed checkpoint as the check tells it; absent from a server that makes none. */
export type RecordCheckpoint = NonNullable<RecordCheck['checkpoint']>;

/** From which position on the history is not proved by the record check, and why, in words. */
export interface Unverified {
  from: number;
  why: string;
}

/**
 * What of the history the check leaves unproved: null when it all verified, or while the check is not known
 * (loading, or failed: the banner says so).
 */
export function unverifiedOf(check: RecordCheck | undefined): Unverified | null {
  if (!check) return null;
  const from = firstUnverifiedPosition(check);
  if (from === null) return null;
  return { from, why: t.unverifiedEntry('keyMismatch' in check ? null : from) };
}

/** Whether the event at `position` is proved by the check. */
export const isVerified = (unverified: Unverified | null, position: number) =>
  unverified === null || position < unverified.from;

/** The offline verifier of audit bundles: one page that checks a bundle in the browser, with no server. */
export const AUDIT_VERIFIER_URL = '/audit-verify.html';
