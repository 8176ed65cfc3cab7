import { useQuery } from '@tanstack/react-query';
import type { Execution } from '@/lib/execution-stream';
import { reviewAuditQueryOptions } from '../../history/api/get-review-audit';

/**
 * The ids of an execution's decided reviews that rest on events the record check does not prove (changed,
 * removed or added outside the application, or a server key that is not the record's). Asked only once a
 * review was decided, and again at every new decision: a waiting review is not shown as fact either way.
 */
export function useUnverifiedReviews(execution: Execution | null): ReadonlySet<string> {
  const decided = execution?.reviews.filter((review) => review.status !== 'pending') ?? [];
  const { data } = useQuery({
    ...reviewAuditQueryOptions(execution?.id ?? ''),
    enabled: decided.length > 0,
    // A decision that comes in live is checked with the others: the key changes with it.
    queryKey: [
      ...reviewAuditQueryOptions(execution?.id ?? '').queryKey,
      decided.map((review) => `${review.id}:${review.status}`).join(','),
    ],
    select: (audits) => new Set(audits.filter((audit) => !audit.verified).map((audit) => audit.reviewId)),
  });
  return data ?? NO_REVIEWS;
}

const NO_REVIEWS: ReadonlySet<string> = new Set();
