import { Pencil, Trash2, X } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { useConfirm } from '@/components/ui/confirm-dialog';
import { useToast } from '@/components/ui/toast';
import { useUpdateStep } from '@/features/flow-workspace/api/update-step';
import { editMode as t } from '@/features/flow-workspace/strings';
import { StepResults } from '@/features/flow-workspace/workspace/components/step-results';
import { StepReviewRule, useMayChangeReviewRules } from '@/features/reviews';
import type { Execution } from '@/lib/execution-stream';
import type { Step } from '@/lib/steps-query';
import { runMode, toasts } from '@/lib/strings';
import { useMay } from '@/lib/workspace-roles';
import { resultsOfStep } from '../../../../../domain/execution';
import { useDeleteStep } from '../api/delete-step';
import { useStepDraft } from './edit-session';
import { StepConfigurationCard } from './step-configuration-card';
import { draftChanges } from './step-draft';
import { StepModelPicker } from './step-model-picker';
import { TestExecutionCard } from './test-execution-card';

const modeBadge = {
  single: t.singleOutput,
  multiple: t.multipleOutput,
  multiple_choice: t.choice,
  loop: t.loop,
};

/** One step in edit mode: its settings, a test run on the latest execution, and its results there. */
export function StepDetail({
  step,
  steps,
  execution,
  onChanged,
}: {
  step: Step;
  steps: Step[];
  execution: Execution | null;
  /** A step was updated or deleted: the workspace has changes since its last Save. */
  onChanged: () => void;
}) {
  const { draft, startEditing, stopEditing, change } = useStepDraft(step);
  const mayChange = useMay('change');
  const mayRun = useMay('run');
  // A step with a review rule is removed only by whoever may change the rule.
  const mayChangeRules = useMayChangeReviewRules(step.flowId);
  const mayRemove = mayChange && (step.review == null || mayChangeRules);
  const updateStep = useUpdateStep(step.flowId, {
    title: toasts.updateStepFailed,
    messageOr: toasts.updateStepFailed,
  });
  const deleteStep = useDeleteStep(step.flowId);
  const toast = useToast();
  const confirm = useConfirm();
  const hasResults = execution !== null && resultsOfStep(execution, step.id).length > 0;

  const save = () =>
    updateStep.mutate(
      { stepId: step.id, changes: draftChanges(draft) },
      {
        onSuccess: () => {
          stopEditing();
          onChanged();
        },
      },
    );

  const remove = async () => {
    if (!(await confirm(t.confirmDeleteStep(step.order, step.name)))) return;
    deleteStep.mutate(step.id, {
      onSuccess: () => {
        stopEditing();
        onChanged();
        toast({ title: toasts.success, description: toasts.stepDeleted, variant: 'success' });
      },
    });
  };

  return (
    <div className="flex flex-col gap-4" data-testid="step-detail">
      <Card className="flex flex-wrap items-center gap-3 p-5">
        <h2
          className="min-w-[12rem] flex-1 truncate text-lg font-semibold text-slate-900"
          data-testid="step-detail-title"
        >
          {t.stepTitle(step.order, step.name)}
        </h2>
        <Badge tone="indigo" data-testid="step-detail-mode">
          {modeBadge[step.outputMode]}
        </Badge>
        {!mayChange ? null : draft.editing ? (
          <Button
            variant="outline"
            size="sm"
            onClick={stopEditing}
            disabled={updateStep.isPending}
            data-testid="edit-toggle"
          >
            <X className="h-4 w-4" />
            {t.cancelEdit}
          </Button>
        ) : (
          <Button variant="outline" size="sm" onClick={startEditing} data-testid="edit-toggle">
            <Pencil className="h-4 w-4" />
            {t.edit}
          </Button>
        )}
        {mayRemove ? (
          <Button
            variant="destructive"
            size="sm"
            onClick={remove}
            disabled={deleteStep.isPending}
            data-testid="delete-step"
          >
            <Trash2 className="h-4 w-4" />
            {t.deleteStep}
          </Button>
        ) : null}
      </Card>
      <StepConfigurationCard
        step={step}
        steps={steps}
        draft={draft}
        onChange={change}
        onSave={save}
        saving={updateStep.isPending}
      />
      {mayChange ? <StepModelPicker step={step} onChanged={onChanged} /> : null}
      {mayChange ? <StepReviewRule step={step} onChanged={onChanged} useSave={useUpdateStep} /> : null}
      {mayRun ? <TestExecutionCard key={step.id} step={step} execution={execution} /> : null}
      <Card className="p-5" data-testid="step-results-card">
        {execution && hasResults ? (
          // It brings its own heading and the version pager.
          <StepResults key={step.id} step={step} execution={execution} />
        ) : (
          <>
            <h4 className="text-sm font-semibold text-slate-700">{runMode.results}</h4>
            <p className="mt-2 text-sm text-slate-500">{t.noResults}</p>
          </>
        )}
      </Card>
    </div>
  );
}
