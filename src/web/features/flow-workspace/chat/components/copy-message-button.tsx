import { CopyButton } from '@/components/ui/copy-button';
import { chatMode as t } from '@/features/flow-workspace/strings';

/** Copies an answer to the clipboard; a tick confirms it, a toast says when the browser refused. */
export function CopyMessageButton({ text }: { text: string }) {
  return (
    <CopyButton
      text={text}
      copyLabel={t.copy}
      copiedLabel={t.copied}
      failedTitle={t.copyFailed}
      testId="chat-copy"
    />
  );
}
