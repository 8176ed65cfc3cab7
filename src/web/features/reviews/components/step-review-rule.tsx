import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { useMembers } from '@/features/workspaces';
import type { BodyOf } from '@/lib/api-client';
import type { ErrorToastMeta } from '@/lib/failure-toast';
import { useFlow } from '@/lib/flow-query';
import type { Step } from '@/lib/steps-query';
import { useWorkspaceRole } from '@/lib/workspace-roles';
import { MAX_DUE_IN_HOURS, mayChangeReviewRule } from '../../../../domain/step-review';
import { reviewRule as t } from '../strings';
import { askedOf, type Choice, type ReviewRuleDraft, ReviewRuleFields, wholeIn } from './review-rule-fields';

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

function choiceOf(review: StoredReview | null): Choice {
  if (!review || review.by === 'runner') return 'runner';
  return review.by === 'members' ? 'members' : (review.role ?? 'reviewer');
}

function draftOf(review: StoredReview | null): ReviewRuleDraft {
  return {
    choice: choiceOf(review),
    userIds: review?.by === 'members' ? [...(review.userIds ?? [])] : [],
    approvals: String(review && review.by !== 'runner' ? review.approvals : 1),
    dueInHours: review?.dueInHours === undefined ? '' : String(review.dueInHours),
    dueAt: '',
    onDue: review?.onDue ?? 'remind',
    note: '',
  };
}

/**
 * The rule the draft saves, as the API takes it (null: the runner approves); undefined while it cannot be
 * saved (nobody picked, approvals or due hours out of range). `selfApproval` is kept as stored.
 */
function ruleOf(draft: ReviewRuleDraft, selfApproval: boolean | undefined): RuleInput | null | undefined {
  const asked = askedOf(draft);
  if (asked === null || asked === undefined) return asked;
  const hours = draft.dueInHours.trim() === '' ? undefined : wholeIn(draft.dueInHours, 1, MAX_DUE_IN_HOURS);
  if (hours === null) return undefined;
  return {
    ...asked,
    ...(selfApproval === undefined ? {} : { selfApproval }),
    ...(hours === undefined ? {} : { dueInHours: hours, onDue: draft.onDue }),
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
  const review = step.review ?? null;
  const selfApproval = review && review.by !== 'runner' ? review.selfApproval : undefined;
  const form = useForm<ReviewRuleDraft>({ defaultValues: draftOf(review) });
  // The saved rule changed (this save, another tab): the draft starts again from it.
  const storedKey = JSON.stringify(review);
  const [draftOfKey, setDraftOfKey] = useState(storedKey);
  if (draftOfKey !== storedKey) {
    setDraftOfKey(storedKey);
    form.reset(draftOf(review));
  }
  const draft = useWatch({ control: form.control }) as ReviewRuleDraft;
  const busy = update.isPending;
  const rule = ruleOf(draft, selfApproval);
  const unchanged = JSON.stringify(rule) === JSON.stringify(ruleOf(draftOf(review), selfApproval));
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
      <ReviewRuleFields
        form={form}
        workspaceId={workspaceId}
        runnerToo
        due="hours"
        disabled={busy}
        testId="step-review"
        dueLabel={t.dueInHours}
        dueHint={t.dueInHoursHint}
      />
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
            onClick={() => form.reset(draftOf(review))}
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
