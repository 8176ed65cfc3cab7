import { Lightbulb, ListTree } from 'lucide-react';
import type { ReactNode } from 'react';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { chatMode as t } from '@/features/flow-workspace/strings';
import { cn } from '@/lib/cn';
import { toasts } from '@/lib/strings';

function Entry({
  icon,
  title,
  text,
  onClick,
  testId,
}: {
  icon: ReactNode;
  title: string;
  text: string;
  onClick?: () => void;
  testId: string;
}) {
  const disabled = onClick === undefined;
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={disabled}
      aria-disabled={disabled}
      className={cn(
        'flex w-full items-start gap-3 rounded-lg border border-slate-200 p-3 text-left transition-colors',
        disabled ? 'cursor-not-allowed opacity-60' : 'cursor-pointer hover:bg-slate-50',
      )}
      data-testid={testId}
    >
      <span className="mt-0.5 text-slate-500">{icon}</span>
      <span>
        <span className="block text-sm font-medium text-slate-900">{title}</span>
        <span className="block text-sm text-slate-500">{text}</span>
      </span>
    </button>
  );
}

/** The chat has no workspace header, so the flow's tools are reached from here. */
export function ChatSettingsDialog({
  open,
  onOpenChange,
  onOpenLogs,
  onOpenSuggestions,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onOpenLogs: () => void;
  onOpenSuggestions: () => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={t.settings}
        description={t.settingsText}
        closeLabel={toasts.close}
        data-testid="chat-settings-dialog"
      >
        <div className="flex flex-col gap-2">
          <Entry
            icon={<ListTree className="h-4 w-4" />}
            title={t.aiRequestLogs}
            text={t.aiRequestLogsText}
            onClick={onOpenLogs}
            testId="chat-settings-logs"
          />
          <Entry
            icon={<Lightbulb className="h-4 w-4" />}
            title={t.aiSuggestions}
            text={t.aiSuggestionsText}
            onClick={onOpenSuggestions}
            testId="chat-settings-suggestions"
          />
        </div>
      </DialogContent>
    </Dialog>
  );
}
