import { BookOpen } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { LoadMore } from '@/components/ui/load-more';
import { logs as t } from '@/features/flow-workspace/strings';
import { itemsOf } from '@/lib/paged-list';
import { toasts, whyDisabled } from '@/lib/strings';
import { useClearLogs } from '../api/clear-logs';
import { useLogs } from '../api/get-logs';
import { ConversationContextDialog } from './conversation-context-dialog';
import { LogEntry } from './log-entry';

/** What each model call was sent and answered: the prompt after [[label]] replacement, and the reply. */
export function LogsDialog({
  flowId,
  open,
  onOpenChange,
}: {
  flowId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const logs = useLogs(flowId, open);
  const { isLoading } = logs;
  const entries = logs.data ? itemsOf(logs.data) : undefined;
  const [contextOpen, setContextOpen] = useState(false);
  const clearLogs = useClearLogs(flowId);
  const clear = () => clearLogs.mutate();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={t.title}
        closeLabel={toasts.close}
        className="sm:max-w-3xl"
        data-testid="logs-dialog"
      >
        <div className="mb-3 flex flex-wrap justify-end gap-2">
          <Button variant="outline" size="sm" onClick={() => setContextOpen(true)} data-testid="open-context">
            <BookOpen className="h-4 w-4" />
            {t.context}
          </Button>
          <ConfirmButton
            label={t.clear}
            question={t.clearConfirm}
            onConfirm={clear}
            disabled={clearLogs.isPending}
            disabledReason={(!entries || entries.length === 0) && whyDisabled.noLogs}
            testId="clear-logs"
          />
        </div>
        <div className="max-h-[70vh] overflow-y-auto pr-1">
          {isLoading ? <p className="text-sm text-slate-500">{t.loading}</p> : null}
          {entries && entries.length === 0 ? <p className="text-sm text-slate-500">{t.empty}</p> : null}
          <ul className="flex flex-col gap-3">
            {entries?.map((entry) => (
              <LogEntry key={entry.id} entry={entry} />
            ))}
          </ul>
          <LoadMore
            hasNextPage={logs.hasNextPage}
            isFetchingNextPage={logs.isFetchingNextPage}
            fetchNextPage={logs.fetchNextPage}
            testId="logs-load-more"
          />
        </div>
        <ConversationContextDialog flowId={flowId} open={contextOpen} onOpenChange={setContextOpen} />
      </DialogContent>
    </Dialog>
  );
}
