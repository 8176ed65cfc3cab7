import { zodResolver } from '@hookform/resolvers/zod';
import { Save } from 'lucide-react';
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Input, Textarea } from '@/components/ui/field';
import { editMode as t } from '@/features/flow-workspace/strings';
import { whyDisabled } from '@/lib/strings';
import {
  MAX_LOOP_ITERATIONS,
  OUTPUT_MODES,
  STEP_NAME_MAX_LENGTH,
  type Step,
  SYSTEM_PROMPT_MAX_LENGTH,
  stepSettingsSchema,
} from '../../../../../domain/flow';
import { inputSourceOptions, loopIterationsFrom } from '../../../../../domain/step-configuration';
import { ChoicesEditor } from './choices-editor';
import { InputSourcesField } from './input-sources-field';
import { promptLabelsOf } from './prompt-labels';
import { PromptLabelsList } from './prompt-labels-list';
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

interface StepConfigurationProps {
  step: Step;
  steps: Step[];
  draft: StepDraft;
  onChange: (fields: Partial<StepFields>) => void;
  onSave: () => void;
  saving: boolean;
}

/** The step's settings; read-only until the edit toggle is on, then saved by the card's own button. */
export function StepConfigurationCard(props: StepConfigurationProps) {
  const { step, draft } = props;
  // The form starts from the draft: afresh when editing starts or ends, and, read-only, when the step changes.
  const key = draft.editing ? `editing:${step.id}` : JSON.stringify([step.id, draft.fields]);
  return <StepConfigurationForm key={key} {...props} />;
}

/**
 * The form's values are mirrored into the draft, which the header's Save also reads and which outlives a
 * switch to another mode; the domain's step rules check both.
 */
function StepConfigurationForm({ step, steps, draft, onChange, onSave, saving }: StepConfigurationProps) {
  const form = useForm<StepFields>({
    defaultValues: draft.fields,
    resolver: zodResolver(stepSettingsSchema),
  });
  const { fields, editing } = draft;
  const readOnly = !editing || saving;
  const labels = promptLabelsOf(fields.systemPrompt, step, steps);
  const sources = inputSourceOptions(steps, step);
  const problem = editing ? draftProblem(draft) : null;

  useEffect(() => {
    const mirror = form.watch((values) => onChange(values as Partial<StepFields>));
    return () => mirror.unsubscribe();
  }, [form, onChange]);

  return (
    <Card className="p-5" data-testid="step-configuration">
      <h3 className="font-semibold text-slate-900">{t.configuration}</h3>
      <div className="mt-4 flex flex-col gap-4">
        <Field id="step-name" label={t.stepName}>
          <Input
            id="step-name"
            {...form.register('name')}
            maxLength={STEP_NAME_MAX_LENGTH}
            disabled={readOnly}
            data-testid="step-name-input"
          />
        </Field>

        <Field id="step-system-prompt" label={t.systemPrompt}>
          <Textarea
            id="step-system-prompt"
            {...form.register('systemPrompt')}
            maxLength={SYSTEM_PROMPT_MAX_LENGTH}
            disabled={readOnly}
            className="min-h-40 font-mono text-xs"
            data-testid="step-prompt-input"
          />
          <PromptLabelsList labels={labels} />
        </Field>

        <Field id="step-output-mode" label={t.outputModeLabel}>
          <select
            id="step-output-mode"
            className={selectClasses}
            {...form.register('outputMode', {
              // A choice step starts with one row to fill.
              onChange: (event) => {
                if (event.target.value === 'multiple_choice' && form.getValues('choices').length === 0)
                  form.setValue('choices', ['']);
              },
            })}
            disabled={readOnly}
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
          <Controller
            control={form.control}
            name="choices"
            render={({ field }) => (
              <ChoicesEditor choices={field.value} disabled={readOnly} onChange={field.onChange} />
            )}
          />
        ) : null}

        {fields.outputMode === 'loop' ? (
          <div className="grid gap-4 sm:grid-cols-2">
            <Field id="step-loop-iterations" label={t.loopIterations}>
              <Controller
                control={form.control}
                name="maxLoopIterations"
                render={({ field }) => (
                  <Input
                    id="step-loop-iterations"
                    type="number"
                    min={1}
                    max={MAX_LOOP_ITERATIONS}
                    value={field.value}
                    disabled={readOnly}
                    onChange={(e) => field.onChange(loopIterationsFrom(e.target.value))}
                    data-testid="step-loop-iterations"
                  />
                )}
              />
            </Field>
            <Field id="step-loop-target" label={t.loopTarget}>
              {/* A loop repeats the step itself; the target is shown, not chosen. */}
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

        <InputSourcesField control={form.control} sources={sources} disabled={readOnly} />

        <div className="flex items-center gap-2 text-sm text-slate-700">
          <Controller
            control={form.control}
            name="requiresUserInput"
            render={({ field }) => (
              <Checkbox
                id="step-requires-input"
                checked={field.value}
                disabled={readOnly}
                onCheckedChange={(checked) => field.onChange(checked === true)}
                data-testid="step-requires-input"
              />
            )}
          />
          <label htmlFor="step-requires-input">{t.requiresInput}</label>
        </div>

        {editing ? (
          <div className="flex items-center justify-end gap-3 border-t border-slate-100 pt-4">
            {problem === 'needName' ? <p className="text-sm text-red-700">{t.needName}</p> : null}
            <Button
              onClick={form.handleSubmit(onSave)}
              disabled={saving}
              disabledReason={
                problem !== null ? t[problem] : !hasDraftChanges(draft) && whyDisabled.noChanges
              }
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
