import { CopyButton } from '@/components/ui/copy-button';
import { logs as t } from '@/features/flow-workspace/strings';
import type { AiRequestLog } from '../api/get-logs';

/**
 * Where a request sits in the event log: its StepRunStarted position and command id, and the command that
 * lists the execution's events, so a developer goes from the dialog to the log in one paste.
 */
export function StartedEventReference({ event }: { event: AiRequestLog['startedEvent'] }) {
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
        <CopyButton
          text={t.eventsCommand(event.executionId)}
          copyLabel={t.copyEventsCommand}
          copiedLabel={t.eventsCommandCopied}
          failedTitle={t.copyFailed}
          small
          title={`${t.copyEventsCommand}: ${t.eventsCommand(event.executionId)}`}
          testId="log-copy-events-command"
        />
      </div>
    </details>
  );
}
