import { Card } from '@/components/ui/card';
import { ModelPicker } from '@/features/models';
import type { Step } from '@/lib/steps-query';
import { useUpdateStep } from '../../api/update-step';
import { stepModel as t } from '../../strings';

/** The model that answers the step, saved as soon as it is picked (see ModelPicker). */
export function StepModelPicker({ step, onChanged }: { step: Step; onChanged: () => void }) {
  const update = useUpdateStep(step.flowId, { title: t.saveFailed, messageOr: t.saveFailed });
  return (
    <Card className="p-5" data-testid="step-model">
      <ModelPicker
        model={step.model ?? null}
        onPick={(model) => update.mutate({ stepId: step.id, changes: { model } }, { onSuccess: onChanged })}
        saving={update.isPending}
        description={t.description}
        testId="step-model"
      />
    </Card>
  );
}
