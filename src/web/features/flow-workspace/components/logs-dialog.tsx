import { Badge } from '../../../components/ui/badge';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { MarkdownBlock } from '../../../components/ui/markdown';
import { dates, logs as t, toasts } from '../../../lib/strings';
import { useLogs } from '../api/get-logs';

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
  const { data: entries, isLoading } = useLogs(flowId, open);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={t.title}
        closeLabel={toasts.close}
        className="max-w-3xl"
        data-testid="logs-dialog"
      >
        <div className="max-h-[70vh] overflow-y-auto pr-1">
          {isLoading ? <p className="text-sm text-slate-500">{t.loading}</p> : null}
          {entries && entries.length === 0 ? <p className="text-sm text-slate-500">{t.empty}</p> : null}
          <ul className="flex flex-col gap-3">
            {entries?.map((entry) => (
              <li key={entry.id} className="rounded-lg border border-slate-200 p-3" data-testid="log-entry">
                <div className="flex flex-wrap items-center gap-2 text-sm">
                  <span className="font-medium text-slate-800">{t.step(entry.stepOrder)}</span>
                  {entry.success === null ? (
                    <Badge tone="indigo">{t.running}</Badge>
                  ) : (
                    <Badge tone={entry.success ? 'green' : 'red'}>
                      {entry.success ? t.success : t.failure}
                    </Badge>
                  )}
                  {entry.model ? <Badge tone="outline">{entry.model}</Badge> : null}
                  <span className="text-xs text-slate-400">
                    {new Date(entry.requestedAt).toLocaleString(dates.locale)}
                  </span>
                </div>
                {entry.success === false && entry.errorMessage ? (
                  <p className="mt-2 text-sm text-red-700">{entry.errorMessage}</p>
                ) : null}
                <details className="mt-2">
                  <summary className="cursor-pointer text-sm text-slate-600">{t.finalPrompt}</summary>
                  <pre className="mt-2 whitespace-pre-wrap rounded bg-slate-50 p-2 font-mono text-xs text-slate-700">
                    {entry.finalPrompt}
                  </pre>
                </details>
                {entry.aiResponse ? (
                  <details className="mt-1">
                    <summary className="cursor-pointer text-sm text-slate-600">{t.response}</summary>
                    <div className="mt-2 rounded bg-slate-50 p-2">
                      <MarkdownBlock text={entry.aiResponse} />
                    </div>
                  </details>
                ) : null}
              </li>
            ))}
          </ul>
        </div>
      </DialogContent>
    </Dialog>
  );
}
