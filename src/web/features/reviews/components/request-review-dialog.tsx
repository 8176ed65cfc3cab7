import { UserCheck } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '@/components/ui/dialog';
import { Field, Input, Select, Textarea } from '@/components/ui/field';
import { useUser } from '@/features/auth';
import { useMembers } from '@/features/workspaces';
import { messageOf } from '@/lib/api-client';
import type { Execution } from '@/lib/execution-stream';
import type { Step } from '@/lib/steps-query';
import { mayDo } from '@/lib/workspace-roles';
import { pendingReviewOfStep } from '../../../../domain/execution/reviews';
import {
  MAX_REVIEW_TEXT,
  MAX_REVIEWERS,
  ON_DUE,
  type OnDue,
  REVIEW_ROLES,
  type ReviewRole,
} from '../../../../domain/step-review';
import { type ReviewRequest, useRequestReview } from '../api/reviews';
import { requestReview as t } from '../strings';

/**
 * Whether the runner may ask for review of the step's latest results: a workspace's execution, the step's
 * latest run that gave results has some not approved, and the step does not wait for a review already.
 */
export function mayRequestReview(execution: Execution, stepId: string): boolean {
  if (execution.workspaceId === null || pendingReviewOfStep(execution, stepId)) return false;
  const latest = execution.runs
    .filter((run) => run.stepId === stepId && run.status === 'succeeded')
    .filter((run) => execution.results.some((r) => r.runId === run.runId))
    .at(-1);
  return latest !== undefined && execution.results.some((r) => r.runId === latest.runId && !r.approved);
}

/** A date as a datetime-local input shows it: the browser's local time, to the minute. */
function localInputValue(date: Date): string {
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
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

type Who = 'members' | 'role';

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
  const rule = step.review ?? null;
  const request = useRequestReview(execution.id, step.id);
  const members = useMembers(workspaceId);
  const { user } = useUser();
  // The step's rule is where the request starts: its people or role, its approvals, its due time.
  const [who, setWho] = useState<Who>(rule?.by === 'members' ? 'members' : 'role');
  const [userIds, setUserIds] = useState<string[]>(rule?.by === 'members' ? (rule.userIds ?? []) : []);
  const [role, setRole] = useState<ReviewRole>(rule?.role ?? 'reviewer');
  const [approvals, setApprovals] = useState(String(rule && rule.by !== 'runner' ? rule.approvals : 1));
  const [dueAt, setDueAt] = useState(() =>
    rule?.dueInHours ? localInputValue(new Date(Date.now() + rule.dueInHours * 3_600_000)) : '',
  );
  const [onDue, setOnDue] = useState<OnDue>(rule?.onDue ?? 'remind');
  const [note, setNote] = useState('');
  const ids = {
    who: useId(),
    members: useId(),
    role: useId(),
    approvals: useId(),
    dueAt: useId(),
    dueHint: useId(),
    onDue: useId(),
    note: useId(),
    error: useId(),
  };

  // Whom the runner may name: the members who may review, the runner aside (the server refuses them).
  const reviewers = (members.data ?? []).filter(
    (member) => mayDo(member.role, 'review') && member.userId !== user?.id,
  );
  const chosen = userIds.filter((id) => reviewers.some((member) => member.userId === id));
  const maxApprovals = who === 'members' ? Math.max(chosen.length, 1) : MAX_REVIEWERS;
  const noOne = who === 'members' && chosen.length === 0;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (noOne) return;
    const count = Math.min(Math.max(Math.trunc(Number(approvals)) || 1, 1), maxApprovals);
    const body: ReviewRequest = {
      ...(who === 'members' ? { userIds: chosen } : { role }),
      approvals: count,
      ...(dueAt ? { dueAt: new Date(dueAt).toISOString(), onDue } : {}),
      ...(note.trim() ? { note: note.trim() } : {}),
    };
    request.mutate(body, { onSuccess: onDone });
  };

  // A refusal is about what was sent: once the form changes, it no longer stands.
  const forgetRefusal = () => {
    if (request.isError) request.reset();
  };

  return (
    <form
      className="flex flex-col gap-4"
      onSubmit={submit}
      onChange={forgetRefusal}
      aria-describedby={request.isError ? ids.error : undefined}
    >
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1.5 text-sm font-medium text-slate-700">{t.who}</legend>
        <div className="flex flex-wrap gap-4">
          {(['members', 'role'] as const).map((value) => (
            <label key={value} className="flex items-center gap-2 text-sm text-slate-800">
              <input
                type="radio"
                name={ids.who}
                value={value}
                checked={who === value}
                onChange={() => setWho(value)}
                className="h-4 w-4 accent-indigo-600"
                data-testid={`request-review-by-${value}`}
              />
              {value === 'members' ? t.members : t.role}
            </label>
          ))}
        </div>
        {who === 'members' ? (
          <div className="rounded-lg border border-slate-200 p-3" data-testid="request-review-members">
            {members.isPending ? (
              <p className="text-sm text-slate-500">{t.membersLoading}</p>
            ) : members.isError ? (
              <p className="text-sm text-red-600">{t.membersLoadFailed}</p>
            ) : reviewers.length === 0 ? (
              <p className="text-sm text-slate-500">{t.noMembers}</p>
            ) : (
              <ul className="grid gap-2 sm:grid-cols-2">
                {reviewers.map((member) => {
                  const id = `${ids.members}-${member.userId}`;
                  return (
                    <li key={member.userId} className="flex items-center gap-2">
                      <Checkbox
                        id={id}
                        checked={chosen.includes(member.userId)}
                        onCheckedChange={(checked) => {
                          forgetRefusal();
                          setUserIds((before) =>
                            checked === true
                              ? [...before, member.userId]
                              : before.filter((userId) => userId !== member.userId),
                          );
                        }}
                        data-testid={`request-review-member-${member.userId}`}
                      />
                      <label htmlFor={id} className="min-w-0 truncate text-sm text-slate-800">
                        {member.name}
                        <span className="text-slate-500"> · {member.role}</span>
                      </label>
                    </li>
                  );
                })}
              </ul>
            )}
          </div>
        ) : (
          <Field id={ids.role} label={t.roleLabel}>
            <Select
              id={ids.role}
              value={role}
              onChange={(event) => setRole(event.target.value as ReviewRole)}
              data-testid="request-review-role"
            >
              {REVIEW_ROLES.map((value) => (
                <option key={value} value={value}>
                  {t.roles[value]}
                </option>
              ))}
            </Select>
          </Field>
        )}
      </fieldset>

      <div className="grid gap-3 sm:grid-cols-2">
        <Field id={ids.approvals} label={t.approvals}>
          <Input
            id={ids.approvals}
            type="number"
            min={1}
            max={maxApprovals}
            step={1}
            value={approvals}
            onChange={(event) => setApprovals(event.target.value)}
            data-testid="request-review-approvals"
          />
        </Field>
        <Field id={ids.dueAt} label={t.dueAt}>
          <Input
            id={ids.dueAt}
            type="datetime-local"
            min={localInputValue(new Date())}
            value={dueAt}
            onChange={(event) => setDueAt(event.target.value)}
            aria-describedby={ids.dueHint}
            data-testid="request-review-due-at"
          />
          <p id={ids.dueHint} className="text-xs text-slate-500">
            {t.dueAtHint}
          </p>
        </Field>
      </div>
      <Field id={ids.onDue} label={t.onDue}>
        <Select
          id={ids.onDue}
          value={onDue}
          disabled={!dueAt}
          onChange={(event) => setOnDue(event.target.value as OnDue)}
          className="disabled:opacity-60"
          data-testid="request-review-on-due"
        >
          {ON_DUE.map((value) => (
            <option key={value} value={value}>
              {t.onDueOptions[value]}
            </option>
          ))}
        </Select>
      </Field>
      <Field id={ids.note} label={t.note}>
        <Textarea
          id={ids.note}
          value={note}
          maxLength={MAX_REVIEW_TEXT}
          onChange={(event) => setNote(event.target.value)}
          placeholder={t.notePlaceholder}
          className="min-h-20"
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
          disabled={request.isPending || noOne}
          disabledReason={noOne && t.pickOne}
          data-testid="request-review-send"
        >
          {t.send}
        </Button>
      </div>
    </form>
  );
}
