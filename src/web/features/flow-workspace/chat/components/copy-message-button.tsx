import { Check, Copy } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { chatMode as t } from '@/features/flow-workspace/strings';
import { useCopyConfirmation } from '@/lib/use-copy-confirmation';

/** Copies an answer to the clipboard; a tick confirms it, a toast says when the browser refused. */
export function CopyMessageButton({ text }: { text: string }) {
  const { copied, copy } = useCopyConfirmation(t.copyFailed);

  return (
    <Button
      variant="ghost"
      size="icon"
      onClick={() => void copy(text)}
      aria-label={copied ? t.copied : t.copy}
      title={copied ? t.copied : t.copy}
      data-testid="chat-copy"
      data-copied={copied}
    >
      {copied ? <Check className="h-4 w-4 text-emerald-600" /> : <Copy className="h-4 w-4" />}
    </Button>
  );
}
