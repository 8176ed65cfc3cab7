import { Check, Copy } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { useToast } from '../../../components/ui/toast';
import { logs as t } from '../../../lib/strings';
import type { AiRequestLog } from '../api/get-logs';
import { COPY_CONFIRMATION_MS } from './copy-message-button';

/**
 * Where a request sits in the event log: its StepRunStarted position and command id, and the command that
 * lists the execution's events, so a developer goes from the dialog to the log in one paste.
 */
export function StartedEventReference({ event }: { event: AiRequestLog['startedEvent'] }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const toast = useToast();

  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(t.eventsCommand(event.executionId));
    } catch {
      toast({ title: t.copyFailed, variant: 'destructive' });
      return;
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
  };

  return (
    <div
      className="mt-1 flex flex-wrap items-center gap-2 text-xs text-slate-500"
      data-testid="log-started-event"
    >
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
        onClick={() => void copy()}
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
  );
}
