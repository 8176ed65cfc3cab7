import { Plus, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/field';
import { editMode as t } from '@/features/flow-workspace/strings';
import { whyDisabled } from '@/lib/strings';
import { CHOICE_MAX_LENGTH } from '../../../../../domain/flow';

/** The options a multiple_choice step picks from; there is always at least one row to fill. */
export function ChoicesEditor({
  choices,
  disabled,
  onChange,
}: {
  choices: string[];
  disabled: boolean;
  onChange: (choices: string[]) => void;
}) {
  const rows = choices.length === 0 ? [''] : choices;
  const filled = rows.some((c) => c.trim() !== '');
  const remove = (index: number) => {
    // The last choice cannot be removed.
    if (rows.length <= 1) return;
    onChange(rows.filter((_, i) => i !== index));
  };

  return (
    <fieldset className="flex flex-col gap-2" data-testid="choices-editor">
      <legend className="mb-1 text-sm font-medium text-slate-700">{t.choices}</legend>
      {rows.map((choice, i) => (
        // Rows have no identity of their own but their place; typing never reorders them.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <div key={i} className="flex items-center gap-2">
          <Input
            value={choice}
            maxLength={CHOICE_MAX_LENGTH}
            disabled={disabled}
            placeholder={t.choicePlaceholder(i + 1)}
            aria-label={t.choicePlaceholder(i + 1)}
            onChange={(e) => onChange(rows.map((c, j) => (j === i ? e.target.value : c)))}
            data-testid={`choice-input-${i + 1}`}
          />
          <Button
            variant="ghost"
            size="icon"
            aria-label={t.removeChoice(i + 1)}
            title={t.removeChoice(i + 1)}
            disabled={disabled}
            disabledReason={rows.length <= 1 && whyDisabled.lastChoice}
            onClick={() => remove(i)}
            data-testid={`remove-choice-${i + 1}`}
          >
            <X className="h-4 w-4" />
          </Button>
        </div>
      ))}
      {filled ? null : (
        <p className="text-sm text-amber-700" data-testid="need-choice">
          {t.needChoice}
        </p>
      )}
      {disabled ? null : (
        <Button
          variant="outline"
          size="sm"
          className="self-start"
          onClick={() => onChange([...rows, ''])}
          data-testid="add-choice"
        >
          <Plus className="h-4 w-4" />
          {t.addChoice}
        </Button>
      )}
    </fieldset>
  );
}
