import { useId } from 'react';
import { cn } from '@/lib/cn';
import { useModels } from '../api/get-models';
import { modelPicker as t } from '../strings';

const selectClasses =
  'w-full rounded-lg border border-slate-300 bg-white px-3 text-slate-900 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200 disabled:opacity-60';

/** The value of "the server's default" in the list: a step or row that names no model. */
const DEFAULT = '';

/**
 * The model that answers a flow step or a master mode ai row, handed to `onPick` as soon as it is picked: the
 * server's default (null), or one of the models it offers. A model named that the server does not offer
 * (imported from elsewhere) is shown as such: it runs on the default until it is changed. `compact`: the small
 * size of a sheet's row.
 */
export function ModelPicker({
  model,
  onPick,
  saving,
  description,
  compact = false,
  testId,
}: {
  /** The model named now; null: the server's default. */
  model: string | null;
  onPick: (model: string | null) => void;
  saving: boolean;
  description?: string;
  compact?: boolean;
  /** The prefix of the picker's test ids: `<testId>-select`, `<testId>-unavailable`. */
  testId: string;
}) {
  const models = useModels();
  const id = useId();
  const offered = models.data ?? [];
  const unavailable = model !== null && models.isSuccess && !offered.some((m) => m.id === model);
  const fallback = offered[0]?.id;
  return (
    <div className={cn('flex flex-col', compact ? 'gap-1' : 'gap-2')}>
      <label
        htmlFor={id}
        className={compact ? 'text-xs font-semibold text-slate-600' : 'font-semibold text-slate-900'}
      >
        {t.title}
      </label>
      {description ? <p className="text-sm text-slate-600">{description}</p> : null}
      <select
        id={id}
        className={cn(selectClasses, compact ? 'h-8 text-xs' : 'h-10 text-sm')}
        value={model ?? DEFAULT}
        disabled={saving || !models.isSuccess}
        onChange={(event) => onPick(event.target.value === DEFAULT ? null : event.target.value)}
        data-testid={`${testId}-select`}
      >
        <option value={DEFAULT}>{t.serverDefault(fallback)}</option>
        {offered.map((m) => (
          <option key={m.id} value={m.id}>
            {t.option(m.provider, m.name, m.source === 'own key')}
          </option>
        ))}
        {unavailable ? <option value={model}>{t.unavailableOption(model)}</option> : null}
      </select>
      {unavailable ? (
        <p
          className={cn('text-amber-700', compact ? 'text-xs' : 'text-sm')}
          role="status"
          data-testid={`${testId}-unavailable`}
        >
          {t.unavailable(model, fallback)}
        </p>
      ) : null}
      {models.isError ? (
        <p className={cn('text-red-600', compact ? 'text-xs' : 'text-sm')}>{t.loadFailed}</p>
      ) : null}
    </div>
  );
}
