import { useId } from 'react';
import { Controller, type UseFormReturn, useWatch } from 'react-hook-form';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/field';
import { useUser } from '@/features/auth';
import { useMembers } from '@/features/workspaces';
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

/** Who approves: the runner (a step's rule only), the named members, or the members with a role. */
export type Choice = 'runner' | 'members' | ReviewRole;

/**
 * A review rule as its fields hold it, as typed: the one form of the step's rule (in the step editor) and of
 * a request for review (on the run screen). A rule's due time is hours after the request (`dueInHours`); a
 * request's is a moment (`dueAt`, as a datetime-local value); empty: none. A request carries a note too.
 */
export interface ReviewRuleDraft {
  choice: Choice;
  userIds: string[];
  approvals: string;
  dueInHours: string;
  dueAt: string;
  onDue: OnDue;
  note: string;
}

/** The most approvals the draft may ask: the people picked, or any number up to MAX_REVIEWERS for a role. */
export const maxApprovalsOf = (draft: Pick<ReviewRuleDraft, 'choice' | 'userIds'>) =>
  draft.choice === 'members' ? Math.max(draft.userIds.length, 1) : MAX_REVIEWERS;

/** The whole number the text holds between `min` and `max`; null otherwise. */
export const wholeIn = (text: string, min: number, max: number) => {
  const value = Number(text.trim());
  return text.trim() !== '' && Number.isInteger(value) && value >= min && value <= max ? value : null;
};

export const approvalsInvalid = (draft: ReviewRuleDraft) =>
  draft.choice !== 'runner' && wholeIn(draft.approvals, 1, maxApprovalsOf(draft)) === null;

export const dueInHoursInvalid = (draft: ReviewRuleDraft) =>
  draft.dueInHours.trim() !== '' && wholeIn(draft.dueInHours, 1, MAX_DUE_IN_HOURS) === null;

/**
 * Whom the draft asks and how many of them, as the API takes it; null: the runner approves; undefined while
 * it cannot be sent (nobody picked, approvals out of range).
 */
export function askedOf(
  draft: ReviewRuleDraft,
):
  | (({ by: 'members'; userIds: string[] } | { by: 'role'; role: ReviewRole }) & { approvals: number })
  | null
  | undefined {
  if (draft.choice === 'runner') return null;
  if (draft.choice === 'members' && draft.userIds.length === 0) return undefined;
  const approvals = wholeIn(draft.approvals, 1, maxApprovalsOf(draft));
  if (approvals === null) return undefined;
  return draft.choice === 'members'
    ? { by: 'members', userIds: draft.userIds, approvals }
    : { by: 'role', role: draft.choice, approvals };
}

/** A date as a datetime-local input shows it: the browser's local time, to the minute. */
export function localInputValue(date: Date): string {
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/**
 * The fields of a review rule: who approves (`runner` offered only where `runnerToo`), the members picked,
 * how many approvals, the due time (hours after the request, or a moment) and what happens at it. Test ids
 * are `testId` followed by the field's name.
 */
export function ReviewRuleFields({
  form,
  workspaceId,
  runnerToo,
  due,
  disabled,
  testId,
  dueLabel,
  dueHint,
}: {
  form: UseFormReturn<ReviewRuleDraft>;
  workspaceId: string;
  runnerToo: boolean;
  due: 'hours' | 'moment';
  disabled: boolean;
  testId: string;
  dueLabel: string;
  dueHint: string;
}) {
  const draft = useWatch({ control: form.control }) as ReviewRuleDraft;
  const ids = {
    who: useId(),
    approvals: useId(),
    approvalsHint: useId(),
    due: useId(),
    dueHint: useId(),
    onDue: useId(),
  };
  const maxApprovals = maxApprovalsOf(draft);
  const badApprovals = approvalsInvalid(draft);
  const badDue = due === 'hours' && dueInHoursInvalid(draft);
  const dueEmpty = (due === 'hours' ? draft.dueInHours : draft.dueAt).trim() === '';
  // Fewer people picked: no more approvals than they are.
  const pick = (userId: string, checked: boolean) => {
    const userIds = checked ? [...draft.userIds, userId] : draft.userIds.filter((id) => id !== userId);
    form.setValue('userIds', userIds, { shouldDirty: true });
    const approvals = wholeIn(draft.approvals, 1, MAX_REVIEWERS);
    if (approvals !== null && approvals > Math.max(userIds.length, 1))
      form.setValue('approvals', String(Math.max(userIds.length, 1)), { shouldDirty: true });
  };
  return (
    <>
      <div className="flex flex-col gap-3 sm:flex-row">
        <div className="flex flex-1 flex-col gap-1.5">
          <label htmlFor={ids.who} className="text-sm font-medium text-slate-700">
            {t.who}
          </label>
          <select
            id={ids.who}
            className={selectClasses}
            disabled={disabled}
            {...form.register('choice')}
            data-testid={`${testId}-by`}
          >
            {runnerToo ? <option value="runner">{t.options.runner}</option> : null}
            <option value="members">{t.members}</option>
            {REVIEW_ROLES.map((role) => (
              <option key={role} value={role}>
                {t.options[role]}
              </option>
            ))}
          </select>
        </div>
        {draft.choice !== 'runner' ? (
          <div className="flex flex-col gap-1.5 sm:w-48">
            <label htmlFor={ids.approvals} className="text-sm font-medium text-slate-700">
              {t.approvals}
            </label>
            <Input
              id={ids.approvals}
              type="number"
              min={1}
              max={maxApprovals}
              disabled={disabled}
              aria-invalid={badApprovals || undefined}
              aria-describedby={ids.approvalsHint}
              {...form.register('approvals')}
              data-testid={`${testId}-approvals`}
            />
            <p
              id={ids.approvalsHint}
              className={badApprovals ? 'text-xs text-red-600' : 'text-xs text-slate-500'}
            >
              {badApprovals ? t.approvalsInvalid(maxApprovals) : t.approvalsHint(maxApprovals)}
            </p>
          </div>
        ) : null}
      </div>
      {draft.choice === 'members' ? (
        <Controller
          control={form.control}
          name="userIds"
          render={({ field }) => (
            <MemberPicker
              workspaceId={workspaceId}
              picked={field.value}
              disabled={disabled}
              onPick={pick}
              testId={testId}
            />
          )}
        />
      ) : null}
      {draft.choice !== 'runner' ? (
        <div className="flex flex-col gap-3 sm:flex-row">
          <div className="flex flex-1 flex-col gap-1.5">
            <label htmlFor={ids.due} className="text-sm font-medium text-slate-700">
              {dueLabel}
            </label>
            {due === 'hours' ? (
              <Input
                id={ids.due}
                type="number"
                inputMode="numeric"
                min={1}
                max={MAX_DUE_IN_HOURS}
                step={1}
                disabled={disabled}
                aria-invalid={badDue || undefined}
                aria-describedby={ids.dueHint}
                {...form.register('dueInHours')}
                data-testid={`${testId}-due-hours`}
              />
            ) : (
              <Input
                id={ids.due}
                type="datetime-local"
                min={localInputValue(new Date())}
                disabled={disabled}
                aria-describedby={ids.dueHint}
                {...form.register('dueAt')}
                data-testid={`${testId}-due-at`}
              />
            )}
            <p
              id={ids.dueHint}
              className={badDue ? 'text-xs text-red-600' : 'text-xs text-slate-500'}
              role={badDue ? 'alert' : undefined}
              data-testid={`${testId}-due-hint`}
            >
              {badDue ? t.dueInHoursInvalid : dueHint}
            </p>
          </div>
          <div className="flex flex-1 flex-col gap-1.5">
            <label htmlFor={ids.onDue} className="text-sm font-medium text-slate-700">
              {t.onDue}
            </label>
            <select
              id={ids.onDue}
              className={selectClasses}
              disabled={disabled || dueEmpty || badDue}
              {...form.register('onDue')}
              data-testid={`${testId}-on-due`}
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
    </>
  );
}

/**
 * The workspace's members who may review, each a checkbox; the person filling the form is not offered (a
 * rule needs someone else to meet it) unless named already, and someone named who may no longer review is
 * shown, to be taken off. The last one picked cannot be taken off here.
 */
function MemberPicker({
  workspaceId,
  picked,
  disabled,
  onPick,
  testId,
}: {
  workspaceId: string;
  picked: readonly string[];
  disabled: boolean;
  onPick: (userId: string, checked: boolean) => void;
  testId: string;
}) {
  const members = useMembers(workspaceId);
  const { user } = useUser();
  const legendId = useId();
  const idPrefix = useId();
  if (members.isPending) return <p className="text-sm text-slate-500">{t.membersLoading}</p>;
  if (members.isError) return <p className="text-sm text-red-600">{t.membersLoadFailed}</p>;
  const reviewers = members.data.filter(
    (member) =>
      mayDo(member.role, 'review') && (member.userId !== user?.id || picked.includes(member.userId)),
  );
  const gone = picked.filter((id) => !reviewers.some((member) => member.userId === id));
  const rows = [
    ...reviewers.map((member) => ({
      userId: member.userId,
      name: member.userId === user?.id ? `${member.name} ${t.you}` : member.name,
      role: t.roleName[member.role],
    })),
    ...gone.map((userId) => ({ userId, name: t.formerMember, role: null })),
  ];
  return (
    <fieldset
      className="flex flex-col gap-2 rounded-lg border border-slate-200 p-3"
      aria-labelledby={legendId}
      data-testid={`${testId}-members`}
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
                data-testid={`${testId}-member-${row.userId}`}
              />
              <label htmlFor={id} className="min-w-0 truncate text-sm text-slate-800">
                {row.name}
                {row.role ? <span className="text-slate-500"> · {row.role}</span> : null}
              </label>
            </li>
          );
        })}
      </ul>
      <p className="text-xs text-slate-500" data-testid={`${testId}-members-hint`}>
        {picked.length === 0 ? t.pickOne : t.lastOne}
      </p>
    </fieldset>
  );
}
