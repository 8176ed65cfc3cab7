import { Trash2 } from 'lucide-react';
import { Button } from './button';

/** The red bin beside a row: deletes, revokes or removes what the row shows; `label` says which. */
export function DeleteIconButton({
  label,
  disabled,
  onClick,
  testId,
}: {
  label: string;
  disabled?: boolean;
  onClick: () => void;
  testId: string;
}) {
  return (
    <Button
      variant="ghost"
      size="icon"
      aria-label={label}
      title={label}
      disabled={disabled}
      onClick={onClick}
      data-testid={testId}
    >
      <Trash2 className="h-4 w-4 text-red-600" />
    </Button>
  );
}
