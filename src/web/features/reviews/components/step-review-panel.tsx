import { zodResolver } from '@hookform/resolvers/zod';
import { Check, CheckCircle2, Hourglass, Pencil, X } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { HistoryDiff } from '@/components/history-diff';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Field, Textarea } from '@/components/ui/field';
import { useUser } from '@/features/auth';
import type { Execution } from '@/lib/execution-stream';
import { formatDateTime } from '@/lib/format-date';
import { useWorkspaceRole } from '@/lib/workspace-roles';
import { reviewedTextsOf } from '../../../../domain/execution/reviewed-texts';
import { isNamedByReview, settledByOwner } from '../../../../domain/execution/reviews';
import { diffText } from '../../../../domain/execution/text-diff';
import type { Review } from '../../../../domain/execution/types';
import { MAX_REVIEW_TEXT } from '../../../../domain/step-review';
import { namesOf, usePersonName } from '../api/people';
import { useDecideReview } from '../api/reviews';
import { reviewPanel as t } from '../strings';

type NameOf = (userId: string) => string;

/** Who the review asks: the named people by name, or a role's members (and the owners once it went to them). */
function whoOf(review: Pick<Review, 'by' | 'userIds' | 'role' | 'ownersToo'>, nameOf: NameOf) {
  const asked =
    review.by === 'role' ? t.role(review.role ?? 'reviewer') : namesOf(review.userIds.map(nameOf));
  return review.ownersToo ? t.ownersToo(asked) : asked;
}

/** The approvals given so far, each with its comment when there is one. */
function Approvals({ review, nameOf }: { review: Review; nameOf: NameOf }) {
  const comments = review.approvalsGiven.filter((approval) => approval.comment);
  if (comments.length === 0) return null;
  return (
    <ul className="flex flex-col gap-1" data-testid={`review-comments-${review.id}`}>
      {comments.map((approval) => (
        <li key={approval.userId} className="text-sm">
          <span className="font-medium">{t.comment(nameOf(approval.userId))}: </span>
          <span className="whitespace-pre-wrap break-words">{approval.comment}</span>
        </li>
      ))}
    </ul>
  );
}

/** The results someone edited before the review: who, when, and the model's text against the edited one. */
function EditedResults({
  review,
  execution,
  nameOf,
}: {
  review: Review;
  execution: Execution;
  nameOf: NameOf;
}) {
  const edited = reviewedTextsOf(review, execution.results, nameOf).filter(
    (result) => result.editedAt !== null,
  );
  if (edited.length === 0) return null;
  return (
    <div className="flex flex-col gap-2" data-testid={`review-edits-${review.id}`}>
      {edited.map((result) => {
        const label = execution.results.find((each) => each.id === result.resultId)?.label;
        return (
          <div key={result.resultId} className="rounded-md bg-white/70 p-2 text-slate-800">
            <p className="flex flex-wrap items-center gap-1 text-xs font-medium text-amber-900">
              <Pencil className="h-3.5 w-3.5 shrink-0" />
              {label ? `${t.editedResult(label)} · ` : ''}
              {t.editedBy(result.editedBy?.name ?? t.formerMember, formatDateTime(result.editedAt ?? ''))}
            </p>
            <HistoryDiff parts={diffText(result.modelText, result.text)} />
          </div>
        );
      })}
    </div>
  );
}

const approveForm = z.object({
  comment: z.string().trim().max(MAX_REVIEW_TEXT, t.approveCommentTooLong(MAX_REVIEW_TEXT)),
});

/** The approval with an optional comment for the runner; mounted afresh each time the dialog opens. */
function ApproveForm({
  review,
  executionId,
  onDone,
}: {
  review: Review;
  executionId: string;
  onDone: () => void;
}) {
  const decide = useDecideReview(executionId);
  const form = useForm({
    resolver: zodResolver(approveForm),
    defaultValues: { comment: '' },
    mode: 'onChange',
  });
  const error = form.formState.errors.comment?.message;
  return (
    <form
      className="flex flex-col gap-4"
      onSubmit={form.handleSubmit(({ comment }) =>
        decide.mutate(
          { reviewId: review.id, approve: true, ...(comment ? { comment } : {}) },
          { onSuccess: onDone },
        ),
      )}
    >
      <Field id={`review-comment-${review.id}`} label={t.approveComment}>
        <Textarea
          id={`review-comment-${review.id}`}
          {...form.register('comment')}
          placeholder={t.approveCommentPlaceholder}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `review-comment-error-${review.id}` : undefined}
          data-testid={`review-comment-${review.id}`}
        />
      </Field>
      {error ? (
        <p id={`review-comment-error-${review.id}`} className="-mt-2 text-xs text-red-700" role="alert">
          {error}
        </p>
      ) : null}
      <div className="flex justify-end gap-2">
        <Button variant="outline" onClick={onDone}>
          {t.cancel}
        </Button>
        <Button
          type="submit"
          disabled={decide.isPending || error !== undefined}
          data-testid={`review-send-approve-${review.id}`}
        >
          <Check className="h-4 w-4" />
          {t.sendApprove}
        </Button>
      </div>
    </form>
  );
}

/** Approve (in a dialog, with an optional comment), or reject with a reason: for the people the review names. */
function Decision({ review, executionId }: { review: Review; executionId: string }) {
  const decide = useDecideReview(executionId);
  const [approving, setApproving] = useState(false);
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
          maxLength={MAX_REVIEW_TEXT}
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
      <Dialog open={approving} onOpenChange={setApproving}>
        <Button
          size="sm"
          disabled={decide.isPending}
          onClick={() => setApproving(true)}
          data-testid={`review-approve-${review.id}`}
        >
          <Check className="h-4 w-4" />
          {t.approve}
        </Button>
        <DialogContent
          title={t.approveTitle}
          description={t.approveDescription}
          closeLabel={t.close}
          data-testid={`review-approve-dialog-${review.id}`}
        >
          {approving ? (
            <ApproveForm review={review} executionId={executionId} onDone={() => setApproving(false)} />
          ) : null}
        </DialogContent>
      </Dialog>
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
 * A step's latest review on the run screen: waiting (for whom, since when, until when, the runner's note, who
 * approved so far, what was edited, and the decision buttons for the people it names); approved, by whom
 * with their comments; rejected, by whom and why; or expired.
 */
export function StepReviewPanel({
  stepId,
  execution,
  unverifiedMark,
}: {
  stepId: string;
  execution: Execution;
  /**
   * Given when the record check does not prove the decided review (some event it rests on was changed outside
   * the application): its outcome is struck through and this mark says why, so it is not read as fact.
   */
  unverifiedMark?: (reviewId: string) => ReactNode;
}) {
  const review = execution.reviews.filter((r) => r.stepId === stepId).at(-1);
  const nameOf = usePersonName(execution.workspaceId);
  if (!review) return null;
  const mark = review.status === 'pending' ? null : (unverifiedMark?.(review.id) ?? null);
  const struck = mark ? 'line-through decoration-red-400' : '';
  if (review.status === 'approved')
    return (
      <div
        className="flex flex-col gap-2 rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900"
        role="status"
        data-testid={`step-review-approved-${stepId}`}
      >
        <p className="flex flex-wrap items-center gap-2">
          <CheckCircle2 className="h-4 w-4 shrink-0" />
          <span className={struck}>
            {t.approvedBy(namesOf(review.approvalsGiven.map((approval) => nameOf(approval.userId))))}
          </span>
          {mark}
        </p>
        <Approvals review={review} nameOf={nameOf} />
      </div>
    );
  if (review.status === 'rejected')
    return (
      <p
        className="flex flex-wrap items-center gap-2 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800"
        role="status"
        data-testid={`step-review-rejected-${stepId}`}
      >
        <span className={struck}>
          {t.rejected(nameOf(review.rejection?.userId ?? ''), review.rejection?.reason ?? '')}
        </span>
        {mark}
      </p>
    );
  if (review.status === 'expired')
    return (
      <p
        className="flex flex-wrap items-center gap-2 rounded-lg border border-slate-300 bg-slate-50 p-3 text-sm text-slate-800"
        role="status"
        data-testid={`step-review-expired-${stepId}`}
      >
        <span className={struck}>
          {t.expired(formatDateTime(review.decidedAt ?? review.dueAt ?? review.requestedAt))}
        </span>
        {mark}
      </p>
    );
  if (review.status !== 'pending') return null;
  return <PendingReview review={review} execution={execution} stepId={stepId} nameOf={nameOf} />;
}

/** Who the review waits for; who may decide it is asked only of a step that waits. */
function PendingReview({
  review,
  execution,
  stepId,
  nameOf,
}: {
  review: Review;
  execution: Execution;
  stepId: string;
  nameOf: NameOf;
}) {
  const { user } = useUser();
  const role = useWorkspaceRole(execution.workspaceId);
  const named = user ? isNamedByReview(review, user.id, role ?? null) : false;
  // One approval a person: theirs given, the review waits for the others (an owner's settles one too few
  // people may decide, even when they approved it before).
  const approvedByMe =
    user && !settledByOwner(review, role ?? null)
      ? review.approvalsGiven.some((a) => a.userId === user.id)
      : false;
  return (
    <div
      className="flex flex-col gap-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
      role="status"
      data-testid={`step-waiting-review-${stepId}`}
    >
      <p className="flex items-center gap-2">
        <Hourglass className="h-4 w-4 shrink-0" />
        {t.waitingFor(whoOf(review, nameOf))} ·{' '}
        {t.approvals(review.approvalsGiven.length, review.approvalsNeeded)}
      </p>
      <p className="text-xs text-amber-800" data-testid={`review-since-${review.id}`}>
        {t.since(formatDateTime(review.requestedAt))}
        {review.dueAt ? ` · ${t.due(formatDateTime(review.dueAt))}` : ''}
        {review.due?.onDue === 'remind' ? ` · ${t.reminded(formatDateTime(review.due.at))}` : ''}
      </p>
      {review.note ? (
        <p className="rounded-md bg-white/70 p-2 text-slate-800" data-testid={`review-note-${review.id}`}>
          <span className="font-medium text-amber-900">{t.note}: </span>
          <span className="whitespace-pre-wrap break-words">{review.note}</span>
        </p>
      ) : null}
      {review.approvalsGiven.length > 0 ? (
        <p data-testid={`review-approved-so-far-${review.id}`}>
          {t.approvedSoFar(namesOf(review.approvalsGiven.map((approval) => nameOf(approval.userId))))}
        </p>
      ) : null}
      {review.ownersReason === 'too-few-deciders' ? (
        <p data-testid={`review-owners-reason-${review.id}`}>{t.tooFewDeciders}</p>
      ) : null}
      {review.asksAgain ? (
        <p data-testid={`review-asked-again-${review.id}`}>{t.askedAgain(review.asksAgain.because)}</p>
      ) : null}
      <Approvals review={review} nameOf={nameOf} />
      <EditedResults review={review} execution={execution} nameOf={nameOf} />
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
