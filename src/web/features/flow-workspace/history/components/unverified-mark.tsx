import { ShieldAlert } from 'lucide-react';
import { cn } from '@/lib/cn';
import { history as t } from '@/lib/strings';

/**
 * The mark of something the record check does not prove (an event, a decision, the execution at a point): the
 * words on screen, and why in full on hover and in its accessible name (read within the entry's name, e.g. a
 * timeline entry's button).
 */
export function UnverifiedMark({
  why,
  className,
  testId = 'unverified-mark',
}: {
  why: string;
  className?: string;
  testId?: string;
}) {
  return (
    <span
      className={cn(
        'inline-flex shrink-0 items-center gap-1 rounded-full bg-red-50 px-2 py-0.5 text-[11px] font-medium whitespace-nowrap text-red-700 ring-1 ring-inset ring-red-300',
        className,
      )}
      role="img"
      aria-label={`${t.unverified}: ${why}`}
      title={why}
      data-testid={testId}
    >
      <ShieldAlert aria-hidden className="h-3 w-3" />
      {t.unverified}
    </span>
  );
}
