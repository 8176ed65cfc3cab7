import { Badge } from '@/components/ui/badge';
import type { Review } from '../../../../domain/execution/types';
import { namesOf, usePersonName } from '../api/people';
import { resultReview as t } from '../strings';

const TONE = {
  pending: 'amber',
  approved: 'green',
  rejected: 'red',
  expired: 'neutral',
  withdrawn: 'neutral',
} as const;

/**
 * Where the review of a result stands, in place of its Approve checkbox: the result is approved only through
 * its review (approvalBelongsToReview). No review yet: it says only a review approves it.
 */
export function ResultReviewStatus({
  review,
  workspaceId,
  testId,
}: {
  review: Review | undefined;
  workspaceId: string | null;
  testId: string;
}) {
  const nameOf = usePersonName(workspaceId);
  const text = !review
    ? t.byReviewOnly
    : review.status === 'approved'
      ? t.approvedBy(namesOf(review.approvalsGiven.map((approval) => nameOf(approval.userId))))
      : review.status === 'rejected'
        ? t.rejectedBy(nameOf(review.rejection?.userId ?? ''), review.rejection?.reason ?? '')
        : review.status === 'expired'
          ? t.expired
          : t.waiting;
  return (
    <Badge
      tone={review ? TONE[review.status] : 'outline'}
      className="mr-2 max-w-xs truncate whitespace-nowrap"
      title={text}
      data-testid={testId}
      data-review-status={review?.status ?? 'none'}
    >
      {text}
    </Badge>
  );
}
