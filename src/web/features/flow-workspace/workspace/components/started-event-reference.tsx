import { Check, Copy } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { logs as t } from '@/features/flow-workspace/strings';
import { useCopyConfirmation } from '@/lib/use-copy-confirmation';
import type { AiRequestLog } from '../api/get-logs';

/**
 * Where a request sits in the event log: its StepRunStarted position and command id, and the command that
 * lists the execution's events, so a developer goes from the dialog to the log in one paste.
 */
export function StartedEventReference({ event }: { event: AiRequestLog['startedEvent'] }) {
  const { copied, copy } = useCopyConfirmation(t.copyFailed);

  // For developers: kept behind a toggle, so the dialog shows the request first, not ids.
  return (
    <details className="mt-1 text-xs text-slate-500" data-testid="log-started-event">
      <summary className="cursor-pointer select-none">{t.eventDetails}</summary>
      <div className="mt-1 flex flex-wrap items-center gap-2">
        <span className="font-mono text-slate-700" title={t.startedEventTitle(event.id)}>
          {t.startedEvent(event.position)}
        </span>
        {event.commandId ? (
          <span className="select-all font-mono" data-testid="log-command-id">
            {t.command} {event.commandId}
          </span>
        ) : null}
        <Button
          variant="ghost"
          size="icon"
          onClick={() => void copy(t.eventsCommand(event.executionId))}
          aria-label={copied ? t.eventsCommandCopied : t.copyEventsCommand}
          title={
            copied ? t.eventsCommandCopied : `${t.copyEventsCommand}: ${t.eventsCommand(event.executionId)}`
          }
          data-testid="log-copy-events-command"
          data-copied={copied}
        >
          {copied ? <Check className="h-3.5 w-3.5 text-emerald-600" /> : <Copy className="h-3.5 w-3.5" />}
        </Button>
      </div>
    </details>
  );
}
