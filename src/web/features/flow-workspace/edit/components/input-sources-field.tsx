import { type Control, Controller } from 'react-hook-form';
import { Checkbox } from '@/components/ui/checkbox';
import { editMode as t } from '@/features/flow-workspace/strings';
import type { Step } from '@/lib/steps-query';
import type { StepFields } from './step-draft';

/** The earlier steps a step can take input from, ticked on or off. */
export function InputSourcesField({
  control,
  sources,
  disabled,
}: {
  control: Control<StepFields>;
  sources: Step[];
  disabled: boolean;
}) {
  return (
    <Controller
      control={control}
      name="inputSources"
      render={({ field }) => (
        <fieldset className="flex flex-col gap-2" data-testid="input-sources">
          <legend className="mb-1 text-sm font-medium text-slate-700">{t.inputSources}</legend>
          {sources.length === 0 ? <p className="text-sm text-slate-500">{t.noEarlierSteps}</p> : null}
          {sources.map((source) => (
            <div key={source.id} className="flex items-center gap-2 text-sm text-slate-700">
              <Checkbox
                id={`input-source-${source.id}`}
                checked={field.value.includes(source.id)}
                disabled={disabled}
                onCheckedChange={(checked) =>
                  field.onChange(
                    checked === true
                      ? // In flow order, whatever order they were ticked in.
                        sources.map((s) => s.id).filter((id) => id === source.id || field.value.includes(id))
                      : field.value.filter((id) => id !== source.id),
                  )
                }
                data-testid={`input-source-${source.order}`}
              />
              <label htmlFor={`input-source-${source.id}`}>{t.stepTitle(source.order, source.name)}</label>
            </div>
          ))}
        </fieldset>
      )}
    />
  );
}
