import { AlarmClock, ClipboardCheck } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/format-date';
import { reviewLink } from '../../../../domain/review-link';
import { type InboxReview, isOverdue, type ReviewStatusFilter, useReviews } from '../api/reviews';
import { reviewsPage as t } from '../strings';

/**
 * The time now, moved on when the next of these due times passes: a pending review is marked overdue as it
 * becomes so, while the page stays open.
 */
function useNowPast(dueTimes: (string | null)[]): number {
  const [now, setNow] = useState(() => Date.now());
  const next = Math.min(...dueTimes.map((at) => (at ? Date.parse(at) : Number.NaN)).filter((at) => at > now));
  useEffect(() => {
    if (!Number.isFinite(next)) return;
    // setTimeout takes at most about 24.8 days; a later due time is looked at again then.
    const timer = setTimeout(() => setNow(Date.now()), Math.min(next - Date.now() + 50, 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [next]);
  return now;
}

function ReviewItem({ review, now }: { review: InboxReview; now: number }) {
  const given = review.approvalsGiven.length;
  const overdue = isOverdue(review, now);
  return (
    <Card
      className={cn(
        'flex flex-col gap-2 p-4 sm:flex-row sm:items-center',
        overdue && 'border-red-300 bg-red-50/40',
      )}
      data-testid={`review-${review.id}`}
      data-overdue={overdue || undefined}
    >
      <div className="min-w-0 flex-1">
        <p className="truncate font-medium text-slate-900">
          {review.flowName} · {review.stepName}
        </p>
        <p className="text-sm text-slate-600">
          {t.requestedBy(review.requestedBy.name, formatDateTime(String(review.requestedAt)))}
          {review.dueAt && !overdue ? ` · ${t.due(formatDateTime(String(review.dueAt)))}` : ''}
        </p>
        {overdue && review.dueAt ? (
          <p className="text-sm font-medium text-red-700">
            {t.overdueSince(formatDateTime(String(review.dueAt)))}
          </p>
        ) : null}
      </div>
      {/* In a row of their own on a phone, beside the text on a wider screen. */}
      <div className="flex flex-wrap items-center gap-2">
        {overdue ? (
          <Badge tone="red" data-testid={`review-overdue-${review.id}`}>
            <AlarmClock className="h-3.5 w-3.5" aria-hidden />
            {t.overdue}
          </Badge>
        ) : null}
        <Badge>{t.approvals(Math.min(given, review.approvalsNeeded), review.approvalsNeeded)}</Badge>
        <Badge>{t.status[review.status]}</Badge>
      </div>
      {/* The execution under review, which may not be the flow's latest, opened at its step. */}
      <Link
        href={reviewLink(review.flowId, review.executionId, review.stepId)}
        data-testid={`open-review-${review.id}`}
      >
        <Button variant="outline" size="sm">
          {t.open}
        </Button>
      </Link>
    </Card>
  );
}

/** The reviews the signed-in user may decide: those still waiting, and those done. */
export function ReviewsPage() {
  const [status, setStatus] = useState<ReviewStatusFilter>('pending');
  const reviews = useReviews(status);
  const now = useNowPast(
    (reviews.data ?? []).filter((review) => review.status === 'pending').map((review) => review.dueAt),
  );
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-4 p-4" data-testid="reviews-page">
      <div className="flex items-center gap-2">
        <ClipboardCheck className="h-5 w-5 text-indigo-600" />
        <h1 className="text-2xl font-semibold text-slate-900">{t.title}</h1>
      </div>
      <p className="text-sm text-slate-600">{t.description}</p>
      <div className="flex gap-2" role="tablist">
        {(['pending', 'done'] as const).map((each) => (
          <Button
            key={each}
            role="tab"
            aria-selected={status === each}
            variant={status === each ? 'primary' : 'outline'}
            size="sm"
            onClick={() => setStatus(each)}
            data-testid={`reviews-${each}`}
          >
            {t[each]}
          </Button>
        ))}
      </div>
      {reviews.isPending ? (
        <div className="flex flex-col gap-3" role="status" aria-label={t.loading}>
          <Skeleton className="h-16 w-full" />
          <Skeleton className="h-16 w-full" />
        </div>
      ) : reviews.isError ? (
        <p className="text-sm text-red-600">{t.loadFailed}</p>
      ) : reviews.data.length === 0 ? (
        <p className="text-sm text-slate-500" data-testid="reviews-empty">
          {status === 'pending' ? t.empty : t.emptyDone}
        </p>
      ) : (
        <div className="flex flex-col gap-3">
          {reviews.data.map((review) => (
            <ReviewItem key={review.id} review={review} now={now} />
          ))}
        </div>
      )}
    </div>
  );
}
