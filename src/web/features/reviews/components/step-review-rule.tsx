import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/field';
import { useUser } from '@/features/auth';
import { useMembers } from '@/features/workspaces';
import type { BodyOf } from '@/lib/api-client';
import type { ErrorToastMeta } from '@/lib/failure-toast';
import { useFlow } from '@/lib/flow-query';
import type { Step } from '@/lib/steps-query';
import { mayDo, useWorkspaceRole } from '@/lib/workspace-roles';
import {
  MAX_DUE_IN_HOURS,
  MAX_REVIEWERS,
  mayChangeReviewRule,
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
type RuleInput = NonNullable<BodyOf<'/api/steps/{id}', 'put'>['review']>;

/**
 * How a rule is saved: the flow's own step update (its versions and toasts are the flow's), handed in by the
 * screen that shows the rule, so this feature needs nothing of that screen's.
 */
export type UseRuleSave = (
  flowId: string,
  errorToast: ErrorToastMeta,
) => {
  isPending: boolean;
  mutate: (
    variables: { stepId: string; changes: { review: RuleInput | null } },
    options?: { onSuccess?: () => void },
  ) => void;
};

/** The rule being edited, as its controls hold it until it is saved. */
interface Draft {
  choice: Choice;
  userIds: string[];
  /** As typed. */
  approvals: string;
  /** As typed; empty: no due time. */
  dueInHours: string;
  /** Chosen, or as stored; none: the server's default (remind). */
  onDue: OnDue | undefined;
  /** As stored, unless the runner approved before: a new choice keeps it. */
  selfApproval: boolean | undefined;
}

function choiceOf(review: StoredReview | null): Choice {
  if (!review || review.by === 'runner') return 'runner';
  return review.by === 'members' ? 'members' : (review.role ?? 'reviewer');
}

function draftOf(review: StoredReview | null): Draft {
  return {
    choice: choiceOf(review),
    userIds: review?.by === 'members' ? [...(review.userIds ?? [])] : [],
    approvals: String(review && review.by !== 'runner' ? review.approvals : 1),
    dueInHours: review?.dueInHours === undefined ? '' : String(review.dueInHours),
    onDue: review?.onDue,
    selfApproval: review && review.by !== 'runner' ? review.selfApproval : undefined,
  };
}

/** The most approvals the draft may ask: the people picked, or any number up to MAX_REVIEWERS for a role. */
const maxApprovalsOf = (draft: Draft) =>
  draft.choice === 'members' ? Math.max(draft.userIds.length, 1) : MAX_REVIEWERS;

const wholeIn = (text: string, min: number, max: number) => {
  const value = Number(text.trim());
  return text.trim() !== '' && Number.isInteger(value) && value >= min && value <= max ? value : null;
};

/**
 * The rule the draft saves, as the API takes it (null: the runner approves); undefined while it cannot be
 * saved (nobody picked, approvals or due hours out of range).
 */
function ruleOf(draft: Draft): RuleInput | null | undefined {
  if (draft.choice === 'runner') return null;
  if (draft.choice === 'members' && draft.userIds.length === 0) return undefined;
  const approvals = wholeIn(draft.approvals, 1, maxApprovalsOf(draft));
  if (approvals === null) return undefined;
  const hours = draft.dueInHours.trim() === '' ? undefined : wholeIn(draft.dueInHours, 1, MAX_DUE_IN_HOURS);
  if (hours === null) return undefined;
  return {
    ...(draft.choice === 'members'
      ? { by: 'members' as const, userIds: draft.userIds }
      : { by: 'role' as const, role: draft.choice }),
    approvals,
    ...(draft.selfApproval === undefined ? {} : { selfApproval: draft.selfApproval }),
    ...(hours === undefined ? {} : { dueInHours: hours }),
    ...(hours === undefined || draft.onDue === undefined ? {} : { onDue: draft.onDue }),
  };
}

/**
 * May the user change the review rules of the flow's steps (and remove a step that has one)? A flow of their
 * own: yes; a workspace's: only as an owner of it, as the server decides.
 */
export function useMayChangeReviewRules(flowId: string): boolean {
  const workspaceId = useFlow(flowId).data?.workspaceId;
  const role = useWorkspaceRole(workspaceId);
  return !workspaceId || mayChangeReviewRule(role);
}

/**
 * Who approves the step's results: its runner, the named members of the flow's workspace who may review
 * (never the person editing), or any member with a role; how many of them; and by when, with what happens
 * once that time has passed. Only a flow in a workspace can ask other people, and only an owner of the
 * workspace changes the rule: anyone else reads it. A change is saved with Save, as one version of the flow.
 */
export function StepReviewRule({
  step,
  onChanged,
  useSave,
}: {
  step: Step;
  onChanged: () => void;
  useSave: UseRuleSave;
}) {
  const workspaceId = useFlow(step.flowId).data?.workspaceId;
  const mayChange = useMayChangeReviewRules(step.flowId);
  if (!workspaceId) return null;
  // A step of its own: what was being picked on another step does not carry over.
  return mayChange ? (
    <ReviewRuleCard
      key={step.id}
      step={step}
      workspaceId={workspaceId}
      onChanged={onChanged}
      useSave={useSave}
    />
  ) : (
    <ReviewRuleShown step={step} workspaceId={workspaceId} />
  );
}

function ReviewRuleCard({
  step,
  workspaceId,
  onChanged,
  useSave,
}: {
  step: Step;
  workspaceId: string;
  onChanged: () => void;
  useSave: UseRuleSave;
}) {
  const update = useSave(step.flowId, { title: t.saveFailed, messageOr: t.saveFailed });
  const whoId = useId();
  const approvalsId = useId();
  const approvalsHintId = useId();
  const dueId = useId();
  const dueHintId = useId();
  const onDueId = useId();
  const review = step.review ?? null;
  const [draft, setDraft] = useState(() => draftOf(review));
  // The saved rule changed (this save, another tab): the draft starts again from it.
  const storedKey = JSON.stringify(review);
  const [draftOfKey, setDraftOfKey] = useState(storedKey);
  if (draftOfKey !== storedKey) {
    setDraftOfKey(storedKey);
    setDraft(draftOf(review));
  }
  const busy = update.isPending;
  const rule = ruleOf(draft);
  const unchanged =
    JSON.stringify(rule) ===
    JSON.stringify(review === null || review.by === 'runner' ? null : ruleOf(draftOf(review)));
  const maxApprovals = maxApprovalsOf(draft);
  const approvalsInvalid = draft.choice !== 'runner' && wholeIn(draft.approvals, 1, maxApprovals) === null;
  const dueInvalid =
    draft.dueInHours.trim() !== '' && wholeIn(draft.dueInHours, 1, MAX_DUE_IN_HOURS) === null;
  const change = (changes: Partial<Draft>) => setDraft((before) => ({ ...before, ...changes }));

  // The people picked stay in the draft while another choice is tried: back to named members, they are there.
  const choose = (choice: Choice) => change({ choice });
  const pick = (userId: string, checked: boolean) =>
    setDraft((before) => {
      const userIds = checked ? [...before.userIds, userId] : before.userIds.filter((id) => id !== userId);
      // Fewer people picked: no more approvals than they are.
      const approvals = wholeIn(before.approvals, 1, MAX_REVIEWERS);
      const bounded =
        approvals !== null && approvals > Math.max(userIds.length, 1)
          ? String(Math.max(userIds.length, 1))
          : before.approvals;
      return { ...before, userIds, approvals: bounded };
    });
  const save = () => {
    if (rule === undefined) return;
    update.mutate({ stepId: step.id, changes: { review: rule } }, { onSuccess: onChanged });
  };

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
            value={draft.choice}
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
        {draft.choice !== 'runner' ? (
          <div className="flex flex-col gap-1.5 sm:w-48">
            <label htmlFor={approvalsId} className="text-sm font-medium text-slate-700">
              {t.approvals}
            </label>
            <Input
              id={approvalsId}
              type="number"
              min={1}
              max={maxApprovals}
              value={draft.approvals}
              disabled={busy}
              aria-invalid={approvalsInvalid || undefined}
              aria-describedby={approvalsHintId}
              onChange={(event) => change({ approvals: event.target.value })}
              data-testid="step-review-approvals"
            />
            <p
              id={approvalsHintId}
              className={approvalsInvalid ? 'text-xs text-red-600' : 'text-xs text-slate-500'}
            >
              {approvalsInvalid ? t.approvalsInvalid(maxApprovals) : t.approvalsHint(maxApprovals)}
            </p>
          </div>
        ) : null}
      </div>
      {draft.choice === 'members' ? (
        <MemberPicker workspaceId={workspaceId} picked={draft.userIds} disabled={busy} onPick={pick} />
      ) : null}
      {draft.choice !== 'runner' ? (
        <div className="flex flex-col gap-3 sm:flex-row">
          <div className="flex flex-1 flex-col gap-1.5">
            <label htmlFor={dueId} className="text-sm font-medium text-slate-700">
              {t.dueInHours}
            </label>
            <Input
              id={dueId}
              type="number"
              inputMode="numeric"
              min={1}
              max={MAX_DUE_IN_HOURS}
              step={1}
              value={draft.dueInHours}
              disabled={busy}
              aria-invalid={dueInvalid || undefined}
              aria-describedby={dueHintId}
              onChange={(event) => change({ dueInHours: event.target.value })}
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
              value={draft.onDue ?? 'remind'}
              disabled={busy || draft.dueInHours.trim() === '' || dueInvalid}
              onChange={(event) => change({ onDue: event.target.value as OnDue })}
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
      {unchanged ? null : (
        <div className="flex flex-wrap items-center gap-2">
          <Button
            size="sm"
            onClick={save}
            disabled={busy || rule === undefined}
            data-testid="step-review-save"
          >
            {busy ? t.saving : t.save}
          </Button>
          <Button
            variant="outline"
            size="sm"
            onClick={() => setDraft(draftOf(review))}
            disabled={busy}
            data-testid="step-review-discard"
          >
            {t.discard}
          </Button>
          <p className="text-xs text-slate-500">{t.unsaved}</p>
        </div>
      )}
    </Card>
  );
}

/** The rule as it is, for a member who may not change it: what it asks, and who may change it. */
function ReviewRuleShown({ step, workspaceId }: { step: Step; workspaceId: string }) {
  const review = step.review ?? null;
  const members = useMembers(workspaceId);
  const choice = choiceOf(review);
  const nameOf = (userId: string) =>
    members.data?.find((member) => member.userId === userId)?.name ?? t.formerMember;
  const rows: [string, string][] = [
    [
      t.shown.who,
      choice === 'members'
        ? `${t.members}: ${(review?.userIds ?? []).map(nameOf).join(', ')}`
        : choice === 'runner'
          ? t.options.runner
          : t.options[choice],
    ],
  ];
  if (review && review.by !== 'runner') {
    rows.push([t.shown.approvals, String(review.approvals)]);
    rows.push([
      t.shown.due,
      review.dueInHours === undefined ? t.shown.noDue : t.shown.dueIn(review.dueInHours),
    ]);
    if (review.dueInHours !== undefined) rows.push([t.shown.onDue, t.onDueOptions[review.onDue ?? 'remind']]);
  }
  return (
    <Card className="flex flex-col gap-3 p-5" data-testid="step-review-rule">
      <div>
        <h3 className="font-semibold text-slate-900">{t.title}</h3>
        <p className="text-sm text-slate-600">{t.description}</p>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm" data-testid="step-review-shown">
        {rows.map(([term, value]) => (
          <div key={term} className="contents">
            <dt className="text-slate-500">{term}</dt>
            <dd className="text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="text-sm text-slate-600" data-testid="step-review-owners-only">
        {t.ownersOnly}
      </p>
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
  const { user } = useUser();
  const legendId = useId();
  const idPrefix = useId();
  if (members.isPending) return <p className="text-sm text-slate-500">{t.membersLoading}</p>;
  if (members.isError) return <p className="text-sm text-red-600">{t.membersLoadFailed}</p>;
  // The person editing is never offered: a rule needs someone else to meet it. Named already (by another
  // owner), they are shown, to be taken off.
  const reviewers = members.data.filter(
    (member) =>
      mayDo(member.role, 'review') && (member.userId !== user?.id || picked.includes(member.userId)),
  );
  // Someone picked before who may no longer review is still shown, to be taken off.
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
