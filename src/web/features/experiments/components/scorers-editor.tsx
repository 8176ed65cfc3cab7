import { Plus, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { type FieldErrors, useFieldArray } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Field, Input, Select, Textarea } from '@/components/ui/field';
import { MAX_SCORERS, SCORER_TYPES, type ScorerType } from '../../../../domain/experiment/scorer-definitions';
import { scorerTypes, form as t } from '../strings';
import { type ExperimentFormApi, type ExperimentFormValues, newScorer } from './experiment-form-values';

type Step = { id: string; name: string };

/** A field's message, if it has one: react-hook-form's errors of a scorer, by field name. */
function problemOf(errors: FieldErrors<ExperimentFormValues>, index: number, field: string): string | null {
  const scorer = (
    errors.scorers as unknown as Record<number, Record<string, { message?: string }>> | undefined
  )?.[index];
  return scorer?.[field]?.message ?? null;
}

function Problem({ text }: { text: string | null }) {
  return text ? (
    <p className="text-xs text-red-600" data-testid="scorer-field-problem">
      {text}
    </p>
  ) : null;
}

/** One scorer: its type, name, step, and the fields of its type. */
function ScorerFields({
  form,
  index,
  steps,
  modelsListId,
  onRemove,
}: {
  form: ExperimentFormApi;
  index: number;
  steps: Step[];
  modelsListId: string;
  onRemove: () => void;
}) {
  const id = useId();
  const type = form.watch(`scorers.${index}.type`);
  const errors = form.formState.errors;
  const at = (field: string) => `${id}-${field}`;
  const problem = (field: string) => problemOf(errors, index, field);
  return (
    <div
      className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-slate-50 p-3"
      data-testid="scorer"
      data-type={type}
    >
      <div className="grid gap-3 sm:grid-cols-3">
        <Field id={at('type')} label={t.scorerType}>
          <Select id={at('type')} {...form.register(`scorers.${index}.type`)} data-testid="scorer-type">
            {SCORER_TYPES.map((value) => (
              <option key={value} value={value}>
                {scorerTypes[value]}
              </option>
            ))}
          </Select>
        </Field>
        <Field id={at('name')} label={t.scorerName}>
          <Input id={at('name')} {...form.register(`scorers.${index}.name`)} data-testid="scorer-name" />
        </Field>
        <Field id={at('step')} label={t.scorerStep}>
          <Select id={at('step')} {...form.register(`scorers.${index}.stepId`)} data-testid="scorer-step">
            <option value="">{t.lastStep}</option>
            {steps.map((step) => (
              <option key={step.id} value={step.id}>
                {step.name}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      {type === 'equals' ? (
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" {...form.register(`scorers.${index}.caseSensitive`)} />
          {t.caseSensitive}
        </label>
      ) : null}
      {type === 'contains' ? (
        <Field id={at('text')} label={t.text}>
          <Input id={at('text')} {...form.register(`scorers.${index}.text`)} data-testid="scorer-text" />
          <Problem text={problem('text')} />
        </Field>
      ) : null}
      {type === 'regex' ? (
        <div className="grid gap-3 sm:grid-cols-[minmax(0,3fr)_minmax(0,1fr)]">
          <Field id={at('pattern')} label={t.pattern}>
            <Input
              id={at('pattern')}
              className="font-mono"
              {...form.register(`scorers.${index}.pattern`)}
              data-testid="scorer-pattern"
            />
            <Problem text={problem('pattern')} />
          </Field>
          <Field id={at('flags')} label={t.flags}>
            <Input id={at('flags')} {...form.register(`scorers.${index}.flags`)} />
            <Problem text={problem('flags')} />
          </Field>
        </div>
      ) : null}
      {type === 'jsonSchema' ? (
        <Field id={at('schema')} label={t.schema}>
          <Textarea
            id={at('schema')}
            className="font-mono"
            {...form.register(`scorers.${index}.schema`)}
            data-testid="scorer-schema"
          />
          <Problem text={problem('schema')} />
        </Field>
      ) : null}
      {type === 'length' ? (
        <div className="grid gap-3 sm:grid-cols-2">
          <Field id={at('min')} label={t.min}>
            <Input id={at('min')} inputMode="numeric" {...form.register(`scorers.${index}.min`)} />
            <Problem text={problem('min')} />
          </Field>
          <Field id={at('max')} label={t.max}>
            <Input id={at('max')} inputMode="numeric" {...form.register(`scorers.${index}.max`)} />
            <Problem text={problem('max')} />
          </Field>
        </div>
      ) : null}
      {type === 'similarity' ? (
        <Field id={at('threshold')} label={t.threshold}>
          <Input id={at('threshold')} inputMode="decimal" {...form.register(`scorers.${index}.threshold`)} />
          <Problem text={problem('threshold')} />
        </Field>
      ) : null}
      {type === 'judge' ? (
        <>
          <Field id={at('model')} label={t.judgeModel}>
            <Input
              id={at('model')}
              placeholder="openai:gpt-4.1-mini"
              list={modelsListId}
              {...form.register(`scorers.${index}.model`)}
              data-testid="scorer-model"
            />
            <Problem text={problem('model')} />
          </Field>
          <Field id={at('prompt')} label={t.judgePrompt}>
            <Textarea id={at('prompt')} {...form.register(`scorers.${index}.prompt`)} />
            <Problem text={problem('prompt')} />
          </Field>
        </>
      ) : null}
      <Problem text={problem('name')} />
      <div>
        <Button variant="ghost" size="sm" onClick={onRemove} data-testid="remove-scorer">
          <Trash2 className="h-4 w-4" />
          {t.removeScorer}
        </Button>
      </div>
    </div>
  );
}

/** The experiment's scorers: added by type, each with its fields, removed at will. */
export function ScorersEditor({
  form,
  steps,
  modelsListId,
}: {
  form: ExperimentFormApi;
  steps: Step[];
  /** The list of the server's models, offered as the judge's. */
  modelsListId: string;
}) {
  const scorers = useFieldArray({ control: form.control, name: 'scorers' });
  const [type, setType] = useState<ScorerType>('contains');
  const typeId = useId();
  const errors = form.formState.errors.scorers;
  const listProblem = errors?.message ?? errors?.root?.message ?? null;
  return (
    <fieldset className="flex flex-col gap-3" data-testid="scorers-editor">
      <legend className="text-sm font-semibold text-slate-900">{t.scorers}</legend>
      <p className="text-xs text-slate-600">{t.scorersHint}</p>
      {scorers.fields.length === 0 ? <p className="text-sm text-slate-500">{t.noScorers}</p> : null}
      {scorers.fields.map((field, index) => (
        <ScorerFields
          key={field.id}
          form={form}
          index={index}
          steps={steps}
          modelsListId={modelsListId}
          onRemove={() => scorers.remove(index)}
        />
      ))}
      {listProblem ? (
        <p className="text-sm text-red-600" data-testid="scorers-problem">
          {listProblem}
        </p>
      ) : null}
      <div className="flex flex-wrap items-end gap-2">
        <div className="w-64">
          <label htmlFor={typeId} className="sr-only">
            {t.scorerType}
          </label>
          <Select
            id={typeId}
            value={type}
            onChange={(event) => setType(event.target.value as ScorerType)}
            data-testid="new-scorer-type"
          >
            {SCORER_TYPES.map((value) => (
              <option key={value} value={value}>
                {scorerTypes[value]}
              </option>
            ))}
          </Select>
        </div>
        <Button
          variant="outline"
          size="md"
          onClick={() => scorers.append(newScorer(type))}
          disabled={scorers.fields.length >= MAX_SCORERS}
          data-testid="add-scorer"
        >
          <Plus className="h-4 w-4" />
          {t.addScorer}
        </Button>
      </div>
    </fieldset>
  );
}
