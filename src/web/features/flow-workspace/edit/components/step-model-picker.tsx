import { useId } from 'react';
import { Card } from '@/components/ui/card';
import { useModels } from '../../api/get-models';
import type { Step } from '../../api/get-steps';
import { useUpdateStep } from '../../api/update-step';
import { stepModel as t } from '../../strings';

const selectClasses =
  'h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200 disabled:opacity-60';

/** The value of "the server's default" in the list: a step that names no model. */
const DEFAULT = '';

/**
 * The model that answers the step, saved as soon as it is picked: the server's default, or one of the models
 * it offers. A model the step names that the server does not offer (imported from elsewhere) is shown as such:
 * the step runs on the default until it is changed.
 */
export function StepModelPicker({ step, onChanged }: { step: Step; onChanged: () => void }) {
  const models = useModels();
  const update = useUpdateStep(step.flowId, { title: t.saveFailed, messageOr: t.saveFailed });
  const id = useId();
  const named = step.model ?? null;
  const offered = models.data ?? [];
  const unavailable = named !== null && models.isSuccess && !offered.some((m) => m.id === named);
  const fallback = offered[0]?.id;
  const save = (model: string | null) =>
    update.mutate({ stepId: step.id, changes: { model } }, { onSuccess: onChanged });
  return (
    <Card className="flex flex-col gap-2 p-5" data-testid="step-model">
      <label htmlFor={id} className="font-semibold text-slate-900">
        {t.title}
      </label>
      <p className="text-sm text-slate-600">{t.description}</p>
      <select
        id={id}
        className={selectClasses}
        value={named ?? DEFAULT}
        disabled={update.isPending || !models.isSuccess}
        onChange={(event) => save(event.target.value === DEFAULT ? null : event.target.value)}
        data-testid="step-model-select"
      >
        <option value={DEFAULT}>{t.serverDefault(fallback)}</option>
        {offered.map((model) => (
          <option key={model.id} value={model.id}>
            {t.option(model.provider, model.name, model.source === 'own key')}
          </option>
        ))}
        {unavailable ? <option value={named}>{t.unavailableOption(named)}</option> : null}
      </select>
      {unavailable ? (
        <p className="text-sm text-amber-700" role="status" data-testid="step-model-unavailable">
          {t.unavailable(named, fallback)}
        </p>
      ) : null}
      {models.isError ? <p className="text-sm text-red-600">{t.loadFailed}</p> : null}
    </Card>
  );
}
