import { UserCheck } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '@/components/ui/dialog';
import { Field, Textarea } from '@/components/ui/field';
import { useUser } from '@/features/auth';
import { messageOf } from '@/lib/api-client';
import type { Execution } from '@/lib/execution-stream';
import type { Step } from '@/lib/steps-query';
import { rejectedAsItIs } from '../../../../domain/execution/approval-rule';
import { pendingReviewOfStep } from '../../../../domain/execution/reviews';
import { MAX_REVIEW_TEXT } from '../../../../domain/step-review';
import { type ReviewRequest, useRequestReview } from '../api/reviews';
import { requestReview as t } from '../strings';
import { askedOf, localInputValue, type ReviewRuleDraft, ReviewRuleFields } from './review-rule-fields';

/**
 * Whether the runner may ask for review of the step's latest results: a workspace's execution, the step's
 * latest run that gave results has some not approved that no review rejected as they are, and the step does
 * not wait for a review already.
 */
export function mayRequestReview(execution: Execution, stepId: string): boolean {
  if (execution.workspaceId === null || pendingReviewOfStep(execution, stepId)) return false;
  const latest = execution.runs
    .filter((run) => run.stepId === stepId && run.status === 'succeeded')
    .filter((run) => execution.results.some((r) => r.runId === run.runId))
    .at(-1);
  // A text a review rejected is asked again by its edit, or by a new run: not by a request.
  return (
    latest !== undefined &&
    execution.results.some((r) => r.runId === latest.runId && !r.approved && !rejectedAsItIs(execution, r.id))
  );
}

/** "Yêu cầu review" on the run screen, for a step whose latest results may be reviewed; null otherwise. */
export function RequestReviewButton({
  step,
  execution,
  disabled,
}: {
  step: Step;
  execution: Execution;
  disabled?: boolean;
}) {
  const [open, setOpen] = useState(false);
  if (!mayRequestReview(execution, step.id)) return null;
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button
          variant="outline"
          size="sm"
          className="self-start"
          disabled={disabled}
          data-testid={`request-review-${step.order}`}
        >
          <UserCheck className="h-4 w-4" />
          {t.open}
        </Button>
      </DialogTrigger>
      {open ? (
        <DialogContent
          title={t.title}
          description={t.description(step.name)}
          closeLabel={t.close}
          data-testid="request-review-dialog"
        >
          <RequestReviewForm
            step={step}
            execution={execution}
            workspaceId={execution.workspaceId ?? ''}
            onDone={() => setOpen(false)}
          />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

/** The request as the step's rule would ask it: its people or role, its approvals, its due time. */
function draftOf(step: Step): ReviewRuleDraft {
  const rule = step.review ?? null;
  return {
    choice: rule?.by === 'members' ? 'members' : (rule?.role ?? 'reviewer'),
    userIds: rule?.by === 'members' ? (rule.userIds ?? []) : [],
    approvals: String(rule && rule.by !== 'runner' ? rule.approvals : 1),
    dueInHours: '',
    dueAt: rule?.dueInHours ? localInputValue(new Date(Date.now() + rule.dueInHours * 3_600_000)) : '',
    onDue: rule?.onDue ?? 'remind',
    note: '',
  };
}

function RequestReviewForm({
  step,
  execution,
  workspaceId,
  onDone,
}: {
  step: Step;
  execution: Execution;
  workspaceId: string;
  onDone: () => void;
}) {
  const request = useRequestReview(execution.id, step.id);
  const { user } = useUser();
  // The step's rule is where the request starts; the runner cannot be one of the people asked.
  const form = useForm<ReviewRuleDraft>({
    defaultValues: (() => {
      const draft = draftOf(step);
      return { ...draft, userIds: draft.userIds.filter((id) => id !== user?.id) };
    })(),
  });
  const draft = useWatch({ control: form.control }) as ReviewRuleDraft;
  const ids = { note: useId(), error: useId() };
  const asked = askedOf(draft);
  const noOne = draft.choice === 'members' && draft.userIds.length === 0;

  const submit = form.handleSubmit((values) => {
    const ask = askedOf(values);
    if (!ask) return;
    const body: ReviewRequest = {
      ...(ask.by === 'members' ? { userIds: ask.userIds } : { role: ask.role }),
      approvals: ask.approvals,
      ...(values.dueAt ? { dueAt: new Date(values.dueAt).toISOString(), onDue: values.onDue } : {}),
      ...(values.note.trim() ? { note: values.note.trim() } : {}),
    };
    request.mutate(body, { onSuccess: onDone });
  });

  // A refusal is about what was sent: once the form changes, it no longer stands.
  const { isError: refused, reset: forgetRefusal } = request;
  useEffect(() => {
    if (!refused) return;
    const { unsubscribe } = form.watch(() => forgetRefusal());
    return unsubscribe;
  }, [form, refused, forgetRefusal]);

  return (
    <form
      className="flex flex-col gap-4"
      onSubmit={submit}
      aria-describedby={request.isError ? ids.error : undefined}
    >
      <ReviewRuleFields
        form={form}
        workspaceId={workspaceId}
        runnerToo={false}
        due="moment"
        disabled={request.isPending}
        testId="request-review"
        dueLabel={t.dueAt}
        dueHint={t.dueAtHint}
      />
      <Field id={ids.note} label={t.note}>
        <Textarea
          id={ids.note}
          maxLength={MAX_REVIEW_TEXT}
          placeholder={t.notePlaceholder}
          className="min-h-20"
          {...form.register('note')}
          data-testid="request-review-note"
        />
      </Field>

      {request.isError ? (
        <p
          id={ids.error}
          role="alert"
          className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-700"
          data-testid="request-review-error"
        >
          {messageOf(request.error, t.failed)}
        </p>
      ) : null}

      <div className="flex justify-end gap-2">
        <DialogClose asChild>
          <Button type="button" variant="outline">
            {t.cancel}
          </Button>
        </DialogClose>
        <Button
          type="submit"
          disabled={request.isPending || asked === undefined}
          disabledReason={noOne && t.pickOne}
          data-testid="request-review-send"
        >
          {t.send}
        </Button>
      </div>
    </form>
  );
}
