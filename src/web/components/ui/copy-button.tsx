import { Check, Copy } from 'lucide-react';
import { useCopyConfirmation } from '@/lib/use-copy-confirmation';
import { Button } from './button';

/**
 * Copies `text` to the clipboard: a tick (and `copiedLabel`) confirms it for two seconds, a toast titled
 * `failedTitle` says when the browser refused. An icon alone, named by its label, unless `showLabel`.
 */
export function CopyButton({
  text,
  copyLabel,
  copiedLabel,
  failedTitle,
  showLabel = false,
  variant = 'ghost',
  small = false,
  title,
  testId,
}: {
  text: string;
  copyLabel: string;
  copiedLabel: string;
  failedTitle: string;
  /** The label written beside the icon, not only its name. */
  showLabel?: boolean;
  variant?: 'ghost' | 'outline';
  /** A smaller icon, for a line of small text. */
  small?: boolean;
  /** The tooltip before copying, when it should say more than `copyLabel`. */
  title?: string;
  testId: string;
}) {
  const { copied, copy } = useCopyConfirmation(failedTitle);
  const label = copied ? copiedLabel : copyLabel;
  const icon = small ? 'h-3.5 w-3.5' : 'h-4 w-4';
  return (
    <Button
      variant={variant}
      size={showLabel ? 'md' : 'icon'}
      className={showLabel ? 'shrink-0 whitespace-nowrap' : undefined}
      onClick={() => void copy(text)}
      aria-label={showLabel ? undefined : label}
      title={copied ? copiedLabel : (title ?? copyLabel)}
      data-testid={testId}
      data-copied={copied}
    >
      {copied ? <Check className={`${icon} text-emerald-600`} /> : <Copy className={icon} />}
      {showLabel ? label : null}
    </Button>
  );
}
