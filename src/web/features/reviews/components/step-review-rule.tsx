import { useId } from 'react';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/field';
import { useFlow } from '@/features/flow-workspace/api/get-flow';
import type { Step } from '@/features/flow-workspace/api/get-steps';
import { type StepChanges, useUpdateStep } from '@/features/flow-workspace/api/update-step';
import { MAX_REVIEWERS, REVIEW_ROLES, type ReviewRole } from '../../../../domain/step-review';
import { reviewRule as t } from '../strings';

const selectClasses =
  'h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200 disabled:opacity-60';

type Choice = 'runner' | 'members' | ReviewRole;

/**
 * Who approves the step's results, saved as soon as it is chosen: its runner, or any member of the flow's
 * workspace with a role, and how many of them. Only a flow in a workspace can ask other people; named
 * members are set through the API or the flow's JSON and shown as they are.
 */
export function StepReviewRule({ step, onChanged }: { step: Step; onChanged: () => void }) {
  const flow = useFlow(step.flowId);
  const update = useUpdateStep(step.flowId, { title: t.saveFailed, messageOr: t.saveFailed });
  const whoId = useId();
  const approvalsId = useId();
  if (!flow.data?.workspaceId) return null;
  const review = step.review ?? null;
  const choice: Choice =
    !review || review.by === 'runner'
      ? 'runner'
      : review.by === 'members'
        ? 'members'
        : (review.role ?? 'reviewer');
  const save = (changes: StepChanges['review']) =>
    update.mutate({ stepId: step.id, changes: { review: changes } }, { onSuccess: onChanged });
  const choose = (next: Choice) => {
    if (next === 'runner') save(null);
    else if (next !== 'members') save({ by: 'role', role: next, approvals: review?.approvals ?? 1 });
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
            value={choice}
            disabled={update.isPending}
            onChange={(event) => choose(event.target.value as Choice)}
            data-testid="step-review-by"
          >
            <option value="runner">{t.options.runner}</option>
            {REVIEW_ROLES.map((role) => (
              <option key={role} value={role}>
                {t.options[role]}
              </option>
            ))}
            {choice === 'members' ? (
              <option value="members">{t.named(review?.userIds?.length ?? 0)}</option>
            ) : null}
          </select>
        </div>
        {choice !== 'runner' && review ? (
          <div className="flex flex-col gap-1.5 sm:w-48">
            <label htmlFor={approvalsId} className="text-sm font-medium text-slate-700">
              {t.approvals}
            </label>
            <Input
              id={approvalsId}
              type="number"
              min={1}
              max={choice === 'members' ? (review.userIds?.length ?? 1) : MAX_REVIEWERS}
              defaultValue={review.approvals}
              disabled={update.isPending}
              onBlur={(event) => {
                const approvals = Number(event.target.value);
                if (Number.isInteger(approvals) && approvals >= 1 && approvals !== review.approvals)
                  save({ ...review, approvals });
              }}
              data-testid="step-review-approvals"
            />
          </div>
        ) : null}
      </div>
    </Card>
  );
}
