import { ClipboardCheck } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDateTime } from '@/lib/format-date';
import { reviewLink } from '../../../../domain/review-link';
import { type InboxReview, type ReviewStatusFilter, useReviews } from '../api/reviews';
import { reviewsPage as t } from '../strings';

function ReviewItem({ review }: { review: InboxReview }) {
  const given = review.approvalsGiven.length;
  return (
    <Card className="flex flex-col gap-2 p-4 sm:flex-row sm:items-center" data-testid={`review-${review.id}`}>
      <div className="min-w-0 flex-1">
        <p className="truncate font-medium text-slate-900">
          {review.flowName} · {review.stepName}
        </p>
        <p className="text-sm text-slate-600">
          {t.requestedBy(review.requestedBy.name, formatDateTime(String(review.requestedAt)))}
          {review.dueAt ? ` · ${t.due(formatDateTime(String(review.dueAt)))}` : ''}
        </p>
      </div>
      <Badge>{t.approvals(Math.min(given, review.approvalsNeeded), review.approvalsNeeded)}</Badge>
      <Badge>{t.status[review.status]}</Badge>
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
            <ReviewItem key={review.id} review={review} />
          ))}
        </div>
      )}
    </div>
  );
}
