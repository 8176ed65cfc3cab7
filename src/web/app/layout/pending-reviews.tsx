import { usePendingReviewCount } from '@/features/reviews/api/reviews';
import { reviewNav } from '@/features/reviews/strings';

/**
 * The number of reviews waiting for the signed-in user, beside the Reviews link; nothing when none. It keeps
 * itself current over the live-updates socket, so it loads with the signed-in pages, not the landing page.
 */
export function PendingReviews() {
  const count = usePendingReviewCount();
  if (count === 0) return null;
  return (
    <span
      className="ml-1 rounded-full bg-amber-500 px-1.5 text-xs font-semibold text-white"
      title={reviewNav.count(count)}
      data-testid="pending-review-count"
    >
      {count}
    </span>
  );
}
