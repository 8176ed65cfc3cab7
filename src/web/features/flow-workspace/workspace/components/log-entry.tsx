import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { MarkdownBlock } from '@/components/ui/markdown';
import { logs as t } from '@/features/flow-workspace/strings';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/format-date';
import { formatCount, formatDuration } from '@/lib/format-number';
import { DEFAULT_USER_INPUT } from '../../../../../domain/execution/types';
import type { AiRequestLog } from '../api/get-logs';
import { StartedEventReference } from './started-event-reference';
import { UnreviewedResultsNote } from './unreviewed-results-note';

/** The API answers any string as the key source: one the log has no name for shows as it is. */
const keySourceName = (source: string) =>
  Object.hasOwn(t.keySource, source) ? t.keySource[source as keyof typeof t.keySource] : source;

function Section({ title, children, open }: { title: string; children: ReactNode; open?: boolean }) {
  return (
    <details className="mt-1" open={open}>
      <summary className="cursor-pointer text-sm text-slate-600">{title}</summary>
      <div className="mt-2">{children}</div>
    </details>
  );
}

const preClasses = 'whitespace-pre-wrap break-words rounded bg-slate-50 p-2 font-mono text-xs text-slate-700';

/** One model request: what was sent (prompt, labels, input), who answered, and the answer or the error. */
export function LogEntry({ entry }: { entry: AiRequestLog }) {
  const labels = Object.entries(entry.stepLabels ?? {});
  const unresolved = entry.unresolvedLabels ?? [];
  return (
    <li className="rounded-lg border border-slate-200 p-3" data-testid="log-entry">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium text-slate-800">{t.step(entry.stepOrder)}</span>
        {entry.success === null ? (
          <Badge tone="indigo">{t.running}</Badge>
        ) : (
          <Badge tone={entry.success ? 'green' : 'red'} data-testid="log-status">
            {entry.success ? t.success : t.failure}
          </Badge>
        )}
        {entry.provider ? (
          <Badge tone="indigo" data-testid="log-provider">
            {t.provider(entry.provider)}
          </Badge>
        ) : null}
        {entry.model ? (
          <Badge tone="outline" data-testid="log-model">
            {t.model(entry.model)}
          </Badge>
        ) : null}
        {entry.keySource ? (
          <Badge tone={entry.keySource === 'offline' ? 'amber' : 'neutral'} data-testid="log-key-source">
            {keySourceName(entry.keySource)}
          </Badge>
        ) : null}
        {entry.reasks > 0 ? (
          <Badge tone="amber" data-testid="log-reasks">
            {t.reasks(entry.reasks)}
          </Badge>
        ) : null}
        <span className="text-xs text-slate-500">{formatDateTime(entry.requestedAt)}</span>
      </div>
      {entry.inputTokens !== null || entry.firstTokenMs !== null ? (
        <div className="mt-1 flex flex-wrap items-center gap-3 text-xs text-slate-600">
          {entry.inputTokens !== null && entry.outputTokens !== null ? (
            <span title={t.tokensTitle} data-testid="log-tokens">
              {t.tokens(formatCount(entry.inputTokens), formatCount(entry.outputTokens))}
            </span>
          ) : null}
          {entry.firstTokenMs !== null ? (
            <span title={t.firstTokenTitle} data-testid="log-first-token">
              {t.firstToken(formatDuration(entry.firstTokenMs))}
            </span>
          ) : null}
        </div>
      ) : null}
      {entry.startedEvent ? <StartedEventReference event={entry.startedEvent} /> : null}
      <UnreviewedResultsNote uses={entry.unreviewedResults ?? []} testId="log-unreviewed" className="mt-2" />
      {entry.success === false && entry.errorMessage ? (
        <p className="mt-2 rounded bg-red-50 p-2 text-sm text-red-700" data-testid="log-error">
          <span className="font-medium">{t.error}: </span>
          {entry.errorMessage}
        </p>
      ) : null}
      <Section title={t.finalPrompt}>
        <pre className={preClasses} data-testid="log-final-prompt">
          {entry.finalPrompt}
        </pre>
      </Section>
      {labels.length > 0 || unresolved.length > 0 ? (
        <Section title={`${t.labels} (${labels.length + unresolved.length})`}>
          <dl className="flex flex-col gap-2" data-testid="log-labels">
            {labels.map(([label, content]) => (
              <div key={label}>
                <dt className="font-mono text-xs font-medium text-indigo-700">[[{label}]]</dt>
                <dd className={cn(preClasses, 'mt-1 max-h-40 overflow-y-auto')}>{content}</dd>
              </div>
            ))}
          </dl>
          {unresolved.length > 0 ? (
            <div className="mt-2 flex flex-wrap items-center gap-1 text-xs" data-testid="log-unresolved">
              <span className="text-slate-600">{t.unresolvedLabels}:</span>
              {unresolved.map((label) => (
                <Badge key={label} tone="amber" className="font-mono">
                  [[{label}]]
                </Badge>
              ))}
            </div>
          ) : null}
        </Section>
      ) : null}
      <Section title={t.userInput}>
        <pre className={preClasses} data-testid="log-user-input">
          {entry.userInput?.trim() || DEFAULT_USER_INPUT}
        </pre>
      </Section>
      {entry.aiResponse ? (
        <Section title={t.response}>
          <div className="rounded bg-slate-50 p-2">
            <MarkdownBlock text={entry.aiResponse} />
          </div>
        </Section>
      ) : null}
    </li>
  );
}
