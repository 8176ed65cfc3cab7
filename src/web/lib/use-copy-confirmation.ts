import { useEffect, useRef, useState } from 'react';
import { useToast } from '../components/ui/toast';

/** The copied tick ('Đã copy!') shows for 2 s. */
export const COPY_CONFIRMATION_MS = 2000;

/**
 * Copies text to the clipboard: `copied` is true for COPY_CONFIRMATION_MS after it worked, a destructive
 * toast titled `failedTitle` (with `failedDescription`, if any) says when the browser refused. `copy`
 * answers whether the text was copied.
 */
export function useCopyConfirmation(failedTitle: string, failedDescription?: string) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const toast = useToast();

  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async (text: string) => {
    try {
      // Outside a secure context there is no clipboard at all: that is a failure like any other.
      await navigator.clipboard.writeText(text);
    } catch {
      toast({ title: failedTitle, description: failedDescription, variant: 'destructive' });
      return false;
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
    return true;
  };

  return { copied, copy };
}
