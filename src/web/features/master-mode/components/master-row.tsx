import { Loader2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { Textarea } from '@/components/ui/field';
import type { MasterStep } from '@/features/master-mode/api/get-master-session';
import { ModelPicker } from '@/features/models';
import { cn } from '@/lib/cn';
import { unresolvedReferences } from '../../../../domain/master-mode/row-references';
import { masterMode as t } from '../strings';
import type { EditableField } from './row-edits';

const cell = 'min-h-24 text-sm';

/**
 * Below the large breakpoint the four columns do not fit side by side (a phone's 390 px would hide Result
 * and Prompt past the right edge): each row stacks its fields instead, each under its column's name.
 */
export const sheetColumns = 'grid grid-cols-1 gap-3 lg:grid-cols-[minmax(10rem,1fr)_2fr_2fr_2fr] lg:gap-2';

/** A field with its column's name over it where the rows are stacked; the sheet's header names it otherwise. */
function StackedField({ name, children }: { name: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col gap-1">
      {/* The field's own aria-label names it for a screen reader. */}
      <span className="text-xs font-semibold text-slate-600 lg:hidden" aria-hidden="true">
        {name}
      </span>
      {children}
    </div>
  );
}

/**
 * One row of the sheet: its section (number, name, type, and an ai row's model, saved as soon as it is
 * picked), input, result (read-only) and prompt.
 */
export function MasterRow({
  row,
  position,
  rowCount,
  selected,
  running,
  streamingText,
  onSelect,
  onEdit,
  onSave,
  onPickModel,
  savingModel,
}: {
  row: MasterStep;
  position: number;
  /** Rows in the session: a `[[row-N]]` past them resolves to nothing. */
  rowCount: number;
  selected: boolean;
  running: boolean;
  /** What the model has written so far while the row runs. */
  streamingText?: string | undefined;
  onSelect: () => void;
  onEdit: (field: EditableField, value: string) => void;
  onSave: (field: EditableField) => void;
  onPickModel: (model: string | null) => void;
  /** The row's model is being saved. */
  savingModel: boolean;
}) {
  const unresolved = unresolvedReferences(`${row.userInput}\n${row.systemPrompt}`, rowCount);
  return (
    // Typing in a row's field selects it too, so the bottom bar acts on the row being worked on.
    <div
      onFocusCapture={onSelect}
      className={cn(
        sheetColumns,
        'border-b border-slate-200 p-3 lg:p-2',
        selected ? 'bg-indigo-50/70' : 'bg-white',
      )}
      data-testid={`master-row-${position}`}
    >
      <div className="flex flex-col gap-1.5 pt-1">
        <button
          type="button"
          onClick={onSelect}
          aria-pressed={selected}
          className="flex items-center gap-2 rounded text-left cursor-pointer"
          data-testid="master-row-select"
        >
          <span className="font-mono text-xs font-semibold text-slate-600" data-testid="master-row-number">
            {t.rowNumber(position)}
          </span>
          <span className="truncate text-sm font-medium text-slate-900" data-testid="master-row-name">
            {row.stepName}
          </span>
        </button>
        <div className="flex flex-wrap gap-1">
          <Badge tone="indigo">{t.stepTypes[row.stepType]}</Badge>
          {row.isRequired ? <Badge tone="amber">{t.requiredBadge}</Badge> : null}
          {running ? (
            <Badge tone="green" data-testid="master-row-running">
              <Loader2 className="h-3 w-3 animate-spin" />
              {t.running}
            </Badge>
          ) : null}
        </div>
        {row.stepType === 'ai' ? (
          <ModelPicker
            model={row.model}
            onPick={onPickModel}
            saving={savingModel}
            compact
            testId="master-row-model"
          />
        ) : null}
      </div>
      <StackedField name={t.columns.input}>
        <Textarea
          aria-label={t.columns.input}
          value={row.userInput}
          placeholder={t.inputPlaceholder[row.stepType]}
          onChange={(e) => onEdit('userInput', e.target.value)}
          onBlur={() => onSave('userInput')}
          className={cell}
          data-testid="master-row-input"
        />
      </StackedField>
      <StackedField name={t.columns.result}>
        <Textarea
          aria-label={t.columns.result}
          value={streamingText ?? row.result}
          readOnly
          className={cn(cell, 'bg-slate-50')}
          data-testid="master-row-result"
        />
      </StackedField>
      <StackedField name={t.columns.prompt}>
        <Textarea
          aria-label={t.columns.prompt}
          value={row.systemPrompt}
          placeholder={t.promptPlaceholder}
          onChange={(e) => onEdit('systemPrompt', e.target.value)}
          onBlur={() => onSave('systemPrompt')}
          className={cell}
          data-testid="master-row-prompt"
        />
        {unresolved.length > 0 ? (
          <p className="text-xs text-amber-800" data-testid="master-row-unresolved">
            {t.unresolvedReferences(unresolved)}
          </p>
        ) : null}
      </StackedField>
    </div>
  );
}
