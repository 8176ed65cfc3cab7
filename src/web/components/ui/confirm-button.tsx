import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { confirmations as t } from '@/lib/strings';
import { Button } from './button';

/**
 * A button for something that cannot be taken back: the first click asks, in place, and only "Xóa" does it;
 * "Hủy" (or Escape on it) goes back to the button.
 */
export function ConfirmButton({
  label,
  question,
  onConfirm,
  disabled,
  disabledReason,
  testId,
}: {
  label: string;
  question: string;
  onConfirm: () => void;
  disabled?: boolean;
  /** Why there is nothing to do now; set, the button is disabled. */
  disabledReason?: string | false | null;
  testId: string;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <Button
        variant="outline"
        size="sm"
        onClick={() => setAsking(true)}
        disabled={disabled}
        disabledReason={disabledReason}
        data-testid={testId}
      >
        <Trash2 className="h-4 w-4" />
        {label}
      </Button>
    );
  }
  return (
    <fieldset className="m-0 flex flex-wrap items-center gap-2 border-0 p-0" aria-label={question}>
      <span className="text-sm text-slate-700">{question}</span>
      <Button
        variant="destructive"
        size="sm"
        autoFocus
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
        data-testid={`${testId}-confirm`}
      >
        {t.confirm}
      </Button>
      <Button
        variant="ghost"
        size="sm"
        onClick={() => setAsking(false)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.stopPropagation();
            setAsking(false);
          }
        }}
        data-testid={`${testId}-cancel`}
      >
        {t.cancel}
      </Button>
    </fieldset>
  );
}
