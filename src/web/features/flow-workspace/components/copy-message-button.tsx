import { Check, Copy } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { useToast } from '../../../components/ui/toast';
import { chatMode as t } from '../../../lib/strings';

/** Spec §9: the copied tick shows for 2 s. */
export const COPY_CONFIRMATION_MS = 2000;

/** Copies an answer to the clipboard; a tick confirms it, a toast says when the browser refused. */
export function CopyMessageButton({ text }: { text: string }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const toast = useToast();

  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async () => {
    try {
      // Outside a secure context there is no clipboard at all: that is a failure like any other.
      await navigator.clipboard.writeText(text);
    } catch {
      toast({ title: t.copyFailed, variant: 'destructive' });
      return;
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
  };

  return (
    <Button
      variant="ghost"
      size="icon"
      onClick={() => void copy()}
      aria-label={copied ? t.copied : t.copy}
      title={copied ? t.copied : t.copy}
      data-testid="chat-copy"
      data-copied={copied}
    >
      {copied ? <Check className="h-4 w-4 text-emerald-600" /> : <Copy className="h-4 w-4" />}
    </Button>
  );
}
