import { useId, useState } from 'react';
import { Card } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/field';
import { useFlow } from '@/features/flow-workspace/api/get-flow';
import type { Step } from '@/features/flow-workspace/api/get-steps';
import { type StepChanges, useUpdateStep } from '@/features/flow-workspace/api/update-step';
import { useMembers } from '@/features/workspaces/api/workspaces';
import { mayDo } from '@/lib/workspace-roles';
import {
  MAX_DUE_IN_HOURS,
  MAX_REVIEWERS,
  ON_DUE,
  type OnDue,
  REVIEW_ROLES,
  type ReviewRole,
} from '../../../../domain/step-review';
import { reviewRule as t } from '../strings';

const selectClasses =
  'h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200 disabled:opacity-60';

type Choice = 'runner' | 'members' | ReviewRole;
type StoredReview = NonNullable<Step['review']>;
type RuleInput = NonNullable<StepChanges['review']>;

/** The stored rule as the API takes it back, so that a change to one field keeps the others. */
function asInput(review: StoredReview): RuleInput {
  return {
    by: review.by,
    ...(review.by === 'members' && review.userIds ? { userIds: review.userIds } : {}),
    ...(review.by === 'role' && review.role ? { role: review.role } : {}),
    approvals: review.approvals,
    selfApproval: review.selfApproval,
    ...(review.dueInHours === undefined ? {} : { dueInHours: review.dueInHours }),
    ...(review.onDue === undefined ? {} : { onDue: review.onDue }),
  };
}

/** What a new choice of who approves keeps of the rule before: its due time, and its self-approval unless it was the runner's. */
function keptOf(review: StoredReview | null) {
  if (!review) return {};
  return {
    ...(review.by === 'runner' ? {} : { selfApproval: review.selfApproval }),
    ...(review.dueInHours === undefined ? {} : { dueInHours: review.dueInHours }),
    ...(review.onDue === undefined ? {} : { onDue: review.onDue }),
  };
}

/**
 * Who approves the step's results, saved as soon as it is chosen: its runner, the named members of the
 * flow's workspace who may review, or any member with a role; how many of them; and by when, with what
 * happens once that time has passed. Only a flow in a workspace can ask other people.
 */
export function StepReviewRule({ step, onChanged }: { step: Step; onChanged: () => void }) {
  const flow = useFlow(step.flowId);
  const workspaceId = flow.data?.workspaceId;
  if (!workspaceId) return null;
  // A step of its own: what was being picked on another step does not carry over.
  return <ReviewRuleCard key={step.id} step={step} workspaceId={workspaceId} onChanged={onChanged} />;
}

function ReviewRuleCard({
  step,
  workspaceId,
  onChanged,
}: {
  step: Step;
  workspaceId: string;
  onChanged: () => void;
}) {
  const update = useUpdateStep(step.flowId, { title: t.saveFailed, messageOr: t.saveFailed });
  const whoId = useId();
  const approvalsId = useId();
  const approvalsHintId = useId();
  const dueId = useId();
  const dueHintId = useId();
  const onDueId = useId();
  // "Named members" chosen, nobody picked yet: nothing can be saved until someone is.
  const [picking, setPicking] = useState(false);
  const [dueInvalid, setDueInvalid] = useState(false);
  const review = step.review ?? null;
  const stored: Choice =
    !review || review.by === 'runner'
      ? 'runner'
      : review.by === 'members'
        ? 'members'
        : (review.role ?? 'reviewer');
  const choice: Choice = picking ? 'members' : stored;
  const picked = stored === 'members' ? (review?.userIds ?? []) : [];
  const busy = update.isPending;

  const save = (changes: StepChanges['review']) =>
    update.mutate({ stepId: step.id, changes: { review: changes } }, { onSuccess: onChanged });
  const choose = (next: Choice) => {
    setPicking(next === 'members' && stored !== 'members');
    if (next === 'runner') save(null);
    else if (next !== 'members')
      save({ by: 'role', role: next, approvals: review?.approvals ?? 1, ...keptOf(review) });
  };
  const pick = (userId: string, checked: boolean) => {
    const userIds = checked ? [...picked, userId] : picked.filter((id) => id !== userId);
    if (userIds.length === 0) return;
    const approvals = Math.min(review?.approvals ?? 1, userIds.length);
    save({ by: 'members', userIds, approvals, ...keptOf(review) });
  };
  const maxApprovals = stored === 'members' ? Math.max(picked.length, 1) : MAX_REVIEWERS;
  // The rule's own fields show once it is saved as chosen.
  const saved = review !== null && stored !== 'runner' && choice === stored;

  return (
    <Card className="flex flex-col gap-3 p-5" data-testid="step-review-rule">
      <div>
        <h3 className="font-semibold text-slate-900">{t.title}</h3>
        <p className="text-sm text-slate-600">{t.description}</p>
      </div>
      <div className="flex flex-col gap-3 sm:flex-row">
        <div className="flex flex-1 flex-col gap-1.5">
          <label htmlFor={whoId} className="text-sm font-medium text-slate-700">
            {t.who}
          </label>
          <select
            id={whoId}
            className={selectClasses}
            value={choice}
            disabled={busy}
            onChange={(event) => choose(event.target.value as Choice)}
            data-testid="step-review-by"
          >
            <option value="runner">{t.options.runner}</option>
            <option value="members">{t.members}</option>
            {REVIEW_ROLES.map((role) => (
              <option key={role} value={role}>
                {t.options[role]}
              </option>
            ))}
          </select>
        </div>
        {saved ? (
          <div className="flex flex-col gap-1.5 sm:w-48">
            <label htmlFor={approvalsId} className="text-sm font-medium text-slate-700">
              {t.approvals}
            </label>
            <Input
              // Read again when the saved rule changes it (fewer people picked, say).
              key={`${review.approvals}/${maxApprovals}`}
              id={approvalsId}
              type="number"
              min={1}
              max={maxApprovals}
              defaultValue={review.approvals}
              disabled={busy}
              aria-describedby={approvalsHintId}
              onBlur={(event) => {
                const approvals = Number(event.target.value);
                if (Number.isInteger(approvals) && approvals >= 1 && approvals <= maxApprovals) {
                  if (approvals !== review.approvals) save({ ...asInput(review), approvals });
                } else event.target.value = String(review.approvals);
              }}
              data-testid="step-review-approvals"
            />
            <p id={approvalsHintId} className="text-xs text-slate-500">
              {t.approvalsHint(maxApprovals)}
            </p>
          </div>
        ) : null}
      </div>
      {choice === 'members' ? (
        <MemberPicker workspaceId={workspaceId} picked={picked} disabled={busy} onPick={pick} />
      ) : null}
      {saved ? (
        <div className="flex flex-col gap-3 sm:flex-row">
          <div className="flex flex-1 flex-col gap-1.5">
            <label htmlFor={dueId} className="text-sm font-medium text-slate-700">
              {t.dueInHours}
            </label>
            <Input
              key={review.dueInHours ?? 'none'}
              id={dueId}
              type="number"
              inputMode="numeric"
              min={1}
              max={MAX_DUE_IN_HOURS}
              step={1}
              defaultValue={review.dueInHours ?? ''}
              disabled={busy}
              aria-invalid={dueInvalid || undefined}
              aria-describedby={dueHintId}
              onChange={() => setDueInvalid(false)}
              onBlur={(event) => {
                const text = event.target.value.trim();
                if (text === '') {
                  setDueInvalid(false);
                  if (review.dueInHours !== undefined) {
                    const { dueInHours: _, ...rest } = asInput(review);
                    save(rest);
                  }
                  return;
                }
                const hours = Number(text);
                if (!Number.isInteger(hours) || hours < 1 || hours > MAX_DUE_IN_HOURS) {
                  setDueInvalid(true);
                  return;
                }
                setDueInvalid(false);
                if (hours !== review.dueInHours) save({ ...asInput(review), dueInHours: hours });
              }}
              data-testid="step-review-due-hours"
            />
            <p
              id={dueHintId}
              className={dueInvalid ? 'text-xs text-red-600' : 'text-xs text-slate-500'}
              role={dueInvalid ? 'alert' : undefined}
              data-testid="step-review-due-hint"
            >
              {dueInvalid ? t.dueInHoursInvalid : t.dueInHoursHint}
            </p>
          </div>
          <div className="flex flex-1 flex-col gap-1.5">
            <label htmlFor={onDueId} className="text-sm font-medium text-slate-700">
              {t.onDue}
            </label>
            <select
              id={onDueId}
              className={selectClasses}
              value={review.onDue ?? 'remind'}
              disabled={busy || review.dueInHours === undefined}
              onChange={(event) => save({ ...asInput(review), onDue: event.target.value as OnDue })}
              data-testid="step-review-on-due"
            >
              {ON_DUE.map((onDue) => (
                <option key={onDue} value={onDue}>
                  {t.onDueOptions[onDue]}
                </option>
              ))}
            </select>
          </div>
        </div>
      ) : null}
    </Card>
  );
}

/** The workspace's members who may review, each a checkbox; the last one picked cannot be taken off here. */
function MemberPicker({
  workspaceId,
  picked,
  disabled,
  onPick,
}: {
  workspaceId: string;
  picked: readonly string[];
  disabled: boolean;
  onPick: (userId: string, checked: boolean) => void;
}) {
  const members = useMembers(workspaceId);
  const legendId = useId();
  const idPrefix = useId();
  if (members.isPending) return <p className="text-sm text-slate-500">{t.membersLoading}</p>;
  if (members.isError) return <p className="text-sm text-red-600">{t.membersLoadFailed}</p>;
  const reviewers = members.data.filter((member) => mayDo(member.role, 'review'));
  // Someone picked before who may no longer review is still shown, to be taken off.
  const gone = picked.filter((id) => !reviewers.some((member) => member.userId === id));
  const rows = [
    ...reviewers.map((member) => ({
      userId: member.userId,
      name: member.name,
      role: t.roleName[member.role],
    })),
    ...gone.map((userId) => ({ userId, name: t.formerMember, role: null })),
  ];
  return (
    <fieldset
      className="flex flex-col gap-2 rounded-lg border border-slate-200 p-3"
      aria-labelledby={legendId}
      data-testid="step-review-members"
    >
      <legend id={legendId} className="px-1 text-sm font-medium text-slate-700">
        {t.membersLegend}
      </legend>
      {rows.length === 0 ? <p className="text-sm text-slate-500">{t.noMembers}</p> : null}
      <ul className="grid gap-2 sm:grid-cols-2">
        {rows.map((row) => {
          const checked = picked.includes(row.userId);
          const last = checked && picked.length === 1;
          const id = `${idPrefix}-${row.userId}`;
          return (
            <li key={row.userId} className="flex items-center gap-2">
              <Checkbox
                id={id}
                checked={checked}
                disabled={disabled || last}
                title={last ? t.lastOne : undefined}
                onCheckedChange={(next) => onPick(row.userId, next === true)}
                data-testid={`step-review-member-${row.userId}`}
              />
              <label htmlFor={id} className="min-w-0 truncate text-sm text-slate-800">
                {row.name}
                {row.role ? <span className="text-slate-500"> · {row.role}</span> : null}
              </label>
            </li>
          );
        })}
      </ul>
      <p className="text-xs text-slate-500" data-testid="step-review-members-hint">
        {picked.length === 0 ? t.pickOne : t.lastOne}
      </p>
    </fieldset>
  );
}
