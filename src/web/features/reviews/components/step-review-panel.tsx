import { Check, Hourglass, X } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Textarea } from '@/components/ui/field';
import { useUser } from '@/features/auth/api/get-user';
import type { Execution } from '@/lib/execution-stream';
import { formatDateTime } from '@/lib/format-date';
import { useWorkspaceRole } from '@/lib/workspace-roles';
import { isNamedByReview } from '../../../../domain/execution/reviews';
import type { Review } from '../../../../domain/execution/types';
import { useDecideReview } from '../api/reviews';
import { reviewPanel as t } from '../strings';

function whoOf(review: Pick<Review, 'by' | 'userIds' | 'role' | 'ownersToo'>) {
  const asked = review.by === 'role' ? t.role(review.role ?? 'reviewer') : t.members(review.userIds.length);
  return review.ownersToo ? t.ownersToo(asked) : asked;
}

/** Approve, or reject with a reason: for the people the review names. */
function Decision({ review, executionId }: { review: Review; executionId: string }) {
  const decide = useDecideReview(executionId);
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  if (rejecting)
    return (
      <div className="flex flex-col gap-2">
        <Textarea
          aria-label={t.reason}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          placeholder={t.reasonPlaceholder}
          data-testid={`review-reason-${review.id}`}
        />
        <div className="flex gap-2">
          <Button
            size="sm"
            variant="destructive"
            disabled={decide.isPending || reason.trim() === ''}
            disabledReason={reason.trim() === '' && t.reasonRequired}
            onClick={() => decide.mutate({ reviewId: review.id, approve: false, reason: reason.trim() })}
            data-testid={`review-send-reject-${review.id}`}
          >
            {t.sendReject}
          </Button>
          <Button size="sm" variant="outline" onClick={() => setRejecting(false)}>
            {t.cancel}
          </Button>
        </div>
      </div>
    );
  return (
    <div className="flex gap-2">
      <Button
        size="sm"
        disabled={decide.isPending}
        onClick={() => decide.mutate({ reviewId: review.id, approve: true })}
        data-testid={`review-approve-${review.id}`}
      >
        <Check className="h-4 w-4" />
        {t.approve}
      </Button>
      <Button
        size="sm"
        variant="outline"
        disabled={decide.isPending}
        onClick={() => setRejecting(true)}
        data-testid={`review-reject-${review.id}`}
      >
        <X className="h-4 w-4" />
        {t.reject}
      </Button>
    </div>
  );
}

/**
 * A step's latest review on the run screen: waiting (for whom, since when, until when, how many approvals so
 * far, and the decision buttons for the people it names), or rejected with its reason, or expired, for the
 * runner.
 */
export function StepReviewPanel({ stepId, execution }: { stepId: string; execution: Execution }) {
  const review = execution.reviews.filter((r) => r.stepId === stepId).at(-1);
  if (!review || review.status === 'approved') return null;
  if (review.status === 'rejected')
    return (
      <p
        className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800"
        role="status"
        data-testid={`step-review-rejected-${stepId}`}
      >
        {t.rejected(review.rejection?.reason ?? '')}
      </p>
    );
  if (review.status === 'expired')
    return (
      <p
        className="rounded-lg border border-slate-300 bg-slate-50 p-3 text-sm text-slate-800"
        role="status"
        data-testid={`step-review-expired-${stepId}`}
      >
        {t.expired(formatDateTime(review.decidedAt ?? review.dueAt ?? review.requestedAt))}
      </p>
    );
  if (review.status !== 'pending') return null;
  return <PendingReview review={review} execution={execution} stepId={stepId} />;
}

/** Who the review waits for; who may decide it is asked only of a step that waits. */
function PendingReview({
  review,
  execution,
  stepId,
}: {
  review: Review;
  execution: Execution;
  stepId: string;
}) {
  const { user } = useUser();
  const role = useWorkspaceRole(execution.workspaceId);
  const named = user ? isNamedByReview(review, user.id, role ?? null) : false;
  // One approval a person: theirs given, the review waits for the others.
  const approvedByMe = user ? review.approvalsGiven.some((a) => a.userId === user.id) : false;
  return (
    <div
      className="flex flex-col gap-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
      role="status"
      data-testid={`step-waiting-review-${stepId}`}
    >
      <p className="flex items-center gap-2">
        <Hourglass className="h-4 w-4 shrink-0" />
        {t.waitingFor(whoOf(review))} · {t.approvals(review.approvalsGiven.length, review.approvalsNeeded)}
      </p>
      <p className="text-xs text-amber-800" data-testid={`review-since-${review.id}`}>
        {t.since(formatDateTime(review.requestedAt))}
        {review.dueAt ? ` · ${t.due(formatDateTime(review.dueAt))}` : ''}
        {review.due?.onDue === 'remind' ? ` · ${t.reminded(formatDateTime(review.due.at))}` : ''}
      </p>
      {approvedByMe ? (
        <p className="flex items-center gap-2" data-testid={`review-approved-by-me-${review.id}`}>
          <Check className="h-4 w-4 shrink-0" />
          {t.approvedByYou}
        </p>
      ) : named ? (
        <Decision review={review} executionId={execution.id} />
      ) : null}
    </div>
  );
}
