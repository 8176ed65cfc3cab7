import { Badge } from '@/components/ui/badge';
import { messageOf } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format-date';
import { history } from '@/lib/strings';
import type { StepSnapshot } from '../../../../../domain/flow';
import { type ReviewAudit, type ReviewDecision, useReviewAudit } from '../api/get-review-audit';
import { UnverifiedMark } from './unverified-mark';

const t = history.reviews;

const STATUS_TONE = {
  pending: 'amber',
  approved: 'green',
  rejected: 'red',
  expired: 'neutral',
  withdrawn: 'neutral',
} as const;

const nameOf = (person: { name: string | null }) => person.name ?? history.unknownActor;

/** Who the review asked: the people by name, or every member of a role. */
function askedOf(review: ReviewAudit): string {
  const { asked } = review;
  const who =
    asked.by === 'members'
      ? t.askedMembers(asked.members.map(nameOf))
      : t.askedRole(asked.role ?? 'reviewer');
  return `${who} · ${t.approvalsNeeded(asked.approvalsNeeded)}`;
}

/** The reviewed results as the decider had them, folded: an auditor opens them when the text matters. */
function SeenResults({ seen }: { seen: ReviewDecision['seen'] }) {
  return (
    <details className="mt-1 rounded border border-slate-200 bg-slate-50" data-testid="review-audit-seen">
      <summary className="cursor-pointer px-2 py-1 text-xs text-slate-600">{t.seen(seen.length)}</summary>
      <div className="flex flex-col gap-2 px-2 pb-2">
        {seen.map((result) => (
          <div key={result.resultId} className="text-xs">
            {result.label ? <p className="font-medium text-slate-700">{result.label}</p> : null}
            <pre className="max-h-48 overflow-y-auto whitespace-pre-wrap break-words rounded bg-white p-2 text-slate-800">
              {result.result ?? t.deleted}
            </pre>
          </div>
        ))}
      </div>
    </details>
  );
}

/** Struck through: what the record check does not prove is not told as fact. */
const unproved = 'line-through decoration-red-400';

function Decision({ decision }: { decision: ReviewDecision }) {
  const approved = decision.decision === 'approved';
  const text = decision.decision === 'approved' ? decision.comment : decision.reason;
  // Only a false says it is not proved: an answer without the field (an older server) is told as before.
  const verified = decision.verified !== false;
  return (
    <li
      className={`border-l-2 pl-3 ${verified ? 'border-slate-200' : 'border-dashed border-red-300'}`}
      data-testid="review-audit-decision"
      data-verified={verified}
    >
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <Badge
          tone={verified ? (approved ? 'green' : 'red') : 'outline'}
          className={verified ? undefined : unproved}
          data-testid="review-audit-decision-badge"
        >
          {approved ? t.approved : t.rejected}
        </Badge>
        {verified ? null : (
          <UnverifiedMark why={t.unverifiedDecision} testId="review-audit-decision-unverified" />
        )}
        <span className={verified ? 'text-slate-700' : `text-slate-500 ${unproved}`}>
          {t.decidedBy(nameOf(decision), decision.role, formatDateTime(decision.at))}
        </span>
      </p>
      {text ? (
        <p
          className={`mt-1 text-sm ${verified ? 'text-slate-800' : `text-slate-500 ${unproved}`}`}
          data-testid="review-audit-text"
        >
          <span className="text-slate-500">{approved ? t.comment : t.reason}: </span>
          {text}
        </p>
      ) : null}
      <SeenResults seen={decision.seen} />
    </li>
  );
}

function ReviewItem({ review, steps }: { review: ReviewAudit; steps: StepSnapshot[] }) {
  const step = steps.find((s) => s.id === review.stepId);
  const pending = review.status === 'pending';
  const verified = review.verified !== false;
  return (
    <li
      className={`rounded-lg border p-3 ${verified ? 'border-slate-200 bg-white' : 'border-dashed border-red-300 bg-red-50/40'}`}
      data-testid="review-audit"
      data-verified={verified}
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium text-slate-900">
          {history.words.step(step?.order ?? 0, step?.name ?? null)}
        </span>
        <Badge
          tone={verified ? STATUS_TONE[review.status] : 'outline'}
          className={verified ? undefined : unproved}
          data-testid="review-audit-status"
        >
          {t.status[review.status]}
        </Badge>
        {verified ? null : <UnverifiedMark why={t.unverifiedReview} testId="review-audit-unverified" />}
        {review.waitedMs !== null ? (
          <span className="text-xs text-slate-500" data-testid="review-audit-waited">
            {t.waited(review.waitedMs, pending)}
          </span>
        ) : null}
      </div>
      <p className="mt-1 text-xs text-slate-600">
        {t.requested(nameOf(review.requestedBy), formatDateTime(review.requestedAt))}
        {review.dueAt ? ` · ${t.due(formatDateTime(review.dueAt))}` : ''}
      </p>
      <p className="text-xs text-slate-600" data-testid="review-audit-asked">
        {askedOf(review)}
      </p>
      {review.note ? <p className="text-xs italic text-slate-600">{t.note(review.note)}</p> : null}
      {review.handedBack.map((left) => (
        <p key={left.userId} className="text-xs text-slate-600" data-testid="review-audit-handed-back">
          {t.handedBack(nameOf(left), formatDateTime(left.at))}
        </p>
      ))}
      {review.due ? (
        <p className="text-xs text-slate-600" data-testid="review-audit-due">
          {t.dueFired(review.due.onDue, formatDateTime(review.due.at))}
        </p>
      ) : null}
      {review.decisions.length === 0 ? (
        <p className="mt-2 text-sm text-slate-500">{t.noDecision}</p>
      ) : (
        <ol className="mt-2 flex flex-col gap-2">
          {review.decisions.map((decision) => (
            <Decision key={`${decision.userId}-${decision.at}`} decision={decision} />
          ))}
        </ol>
      )}
    </li>
  );
}

/**
 * Every review of the execution, oldest first: who was asked, who decided what having seen which text, and
 * how long it waited. Nothing when the execution had none; folded away when the timeline needs the room.
 */
export function ReviewAuditSection({ executionId, steps }: { executionId: string; steps: StepSnapshot[] }) {
  const { data: reviews, error } = useReviewAudit(executionId);
  if (error) return <p className="text-sm text-red-600">{messageOf(error, t.loadFailed)}</p>;
  if (!reviews || reviews.length === 0) return null;
  return (
    <details open className="shrink-0 rounded-lg border border-slate-200" data-testid="history-reviews">
      <summary className="cursor-pointer px-3 py-2 text-sm font-medium text-slate-800">
        {t.title} <span className="font-normal text-slate-500">· {t.count(reviews.length)}</span>
      </summary>
      <ol className="flex max-h-[35vh] flex-col gap-2 overflow-y-auto px-3 pb-3">
        {reviews.map((review) => (
          <ReviewItem key={review.reviewId} review={review} steps={steps} />
        ))}
      </ol>
    </details>
  );
}
