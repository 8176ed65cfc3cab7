import { Save } from 'lucide-react';
import { OUTPUT_MODES, type OutputMode, type Step } from '../../../../domain/flow';
import { inputSourceOptions, loopIterationsFrom } from '../../../../domain/step-configuration';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Checkbox } from '../../../components/ui/checkbox';
import { Input, Textarea } from '../../../components/ui/field';
import { editMode as t } from '../../../lib/strings';
import { ChoicesEditor } from './choices-editor';
import { promptLabelsOf } from './prompt-labels';
import { draftProblem, hasDraftChanges, type StepDraft, type StepFields } from './step-draft';

const selectClasses =
  'h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200 disabled:opacity-60';

function Field({ id, label, children }: { id?: string; label: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      {children}
    </div>
  );
}

/** The step's settings; read-only until the edit toggle is on, then saved by the card's own button. */
export function StepConfigurationCard({
  step,
  steps,
  draft,
  onChange,
  onSave,
  saving,
}: {
  step: Step;
  steps: Step[];
  draft: StepDraft;
  onChange: (fields: Partial<StepFields>) => void;
  onSave: () => void;
  saving: boolean;
}) {
  const { fields, editing } = draft;
  const readOnly = !editing || saving;
  const labels = promptLabelsOf(fields.systemPrompt, step, steps);
  const sources = inputSourceOptions(steps, step);
  const problem = editing ? draftProblem(draft) : null;

  const changeMode = (outputMode: OutputMode) =>
    onChange({
      outputMode,
      // A choice step starts with one row to fill.
      choices: outputMode === 'multiple_choice' && fields.choices.length === 0 ? [''] : fields.choices,
    });
  const toggleSource = (stepId: string, on: boolean) =>
    onChange({
      inputSources: on
        ? sources.map((s) => s.id).filter((id) => id === stepId || fields.inputSources.includes(id))
        : fields.inputSources.filter((id) => id !== stepId),
    });

  return (
    <Card className="p-5" data-testid="step-configuration">
      <h3 className="font-semibold text-slate-900">{t.configuration}</h3>
      <div className="mt-4 flex flex-col gap-4">
        <Field id="step-name" label={t.stepName}>
          <Input
            id="step-name"
            value={fields.name}
            disabled={readOnly}
            onChange={(e) => onChange({ name: e.target.value })}
            data-testid="step-name-input"
          />
        </Field>

        <Field id="step-system-prompt" label={t.systemPrompt}>
          <Textarea
            id="step-system-prompt"
            value={fields.systemPrompt}
            disabled={readOnly}
            onChange={(e) => onChange({ systemPrompt: e.target.value })}
            className="min-h-40 font-mono text-xs"
            data-testid="step-prompt-input"
          />
          <div className="flex flex-col gap-1" data-testid="prompt-labels">
            <span className="text-xs font-medium text-slate-500">{t.labelsTitle}</span>
            {labels.length === 0 ? (
              <span className="text-xs text-slate-500">{t.noLabels}</span>
            ) : (
              <ul className="flex flex-wrap gap-1.5">
                {labels.map(({ label, step: named }) => (
                  <li key={label}>
                    <Badge tone={named ? 'indigo' : 'outline'} data-testid="prompt-label">
                      <span className="font-mono">[[{label}]]</span>
                      {named ? <span>→ {t.labelRefersTo(named.order)}</span> : null}
                    </Badge>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </Field>

        <Field id="step-output-mode" label={t.outputModeLabel}>
          <select
            id="step-output-mode"
            className={selectClasses}
            value={fields.outputMode}
            disabled={readOnly}
            onChange={(e) => changeMode(e.target.value as OutputMode)}
            data-testid="step-output-mode"
          >
            {OUTPUT_MODES.map((mode) => (
              <option key={mode} value={mode}>
                {t.outputModes[mode]}
              </option>
            ))}
          </select>
        </Field>

        {fields.outputMode === 'multiple_choice' ? (
          <ChoicesEditor
            choices={fields.choices}
            disabled={readOnly}
            onChange={(choices) => onChange({ choices })}
          />
        ) : null}

        {fields.outputMode === 'loop' ? (
          <div className="grid gap-4 sm:grid-cols-2">
            <Field id="step-loop-iterations" label={t.loopIterations}>
              <Input
                id="step-loop-iterations"
                type="number"
                min={1}
                max={100}
                value={fields.maxLoopIterations}
                disabled={readOnly}
                onChange={(e) => onChange({ maxLoopIterations: loopIterationsFrom(e.target.value) })}
                data-testid="step-loop-iterations"
              />
            </Field>
            <Field id="step-loop-target" label={t.loopTarget}>
              {/* Spec §4: a loop repeats the step itself; the target is shown, not chosen. */}
              <select
                id="step-loop-target"
                className={selectClasses}
                value={step.id}
                disabled
                data-testid="step-loop-target"
              >
                <option value={step.id}>{t.stepTitle(step.order, fields.name)}</option>
              </select>
            </Field>
          </div>
        ) : null}

        <fieldset className="flex flex-col gap-2" data-testid="input-sources">
          <legend className="mb-1 text-sm font-medium text-slate-700">{t.inputSources}</legend>
          {sources.length === 0 ? <p className="text-sm text-slate-500">{t.noEarlierSteps}</p> : null}
          {sources.map((source) => (
            <div key={source.id} className="flex items-center gap-2 text-sm text-slate-700">
              <Checkbox
                id={`input-source-${source.id}`}
                checked={fields.inputSources.includes(source.id)}
                disabled={readOnly}
                onCheckedChange={(checked) => toggleSource(source.id, checked === true)}
                data-testid={`input-source-${source.order}`}
              />
              <label htmlFor={`input-source-${source.id}`}>{t.stepTitle(source.order, source.name)}</label>
            </div>
          ))}
        </fieldset>

        <div className="flex items-center gap-2 text-sm text-slate-700">
          <Checkbox
            id="step-requires-input"
            checked={fields.requiresUserInput}
            disabled={readOnly}
            onCheckedChange={(checked) => onChange({ requiresUserInput: checked === true })}
            data-testid="step-requires-input"
          />
          <label htmlFor="step-requires-input">{t.requiresInput}</label>
        </div>

        {editing ? (
          <div className="flex items-center justify-end gap-3 border-t border-slate-100 pt-4">
            {problem === 'needName' ? <p className="text-sm text-red-700">{t.needName}</p> : null}
            <Button
              onClick={onSave}
              disabled={saving || problem !== null || !hasDraftChanges(draft)}
              data-testid="save-step"
            >
              <Save className="h-4 w-4" />
              {t.saveStep}
            </Button>
          </div>
        ) : null}
      </div>
    </Card>
  );
}
