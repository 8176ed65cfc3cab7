import { PlayCircle } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Badge } from '@/components/ui/badge';
import { queueCard, flowVersions as t } from '@/features/flow-workspace/strings';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/format-date';
import type { FlowVersion } from '../api/get-flow-versions';
import type { VersionSelection } from './version-selection';

const when = (at: string) => formatDateTime(at);

function VersionEntry({
  entry,
  current,
  selection,
  onSelect,
  onOpenExecution,
}: {
  entry: FlowVersion;
  current: boolean;
  selection: VersionSelection;
  onSelect: () => void;
  onOpenExecution: (executionId: string) => void;
}) {
  const selected = entry.version === selection.version;
  const base = entry.version === selection.base && !selected;
  const ref = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (selected && ref.current) showWithinTimeline(ref.current);
  }, [selected]);
  return (
    <li
      ref={ref}
      className={cn(
        'rounded-lg border border-l-4 transition-colors',
        selected
          ? 'border-slate-200 bg-indigo-50 ring-2 ring-indigo-300'
          : base
            ? 'border-dashed border-indigo-300 bg-white'
            : 'border-slate-200 bg-white',
        // After the border's colour, so the left edge keeps its own.
        current ? 'border-l-indigo-400' : 'border-l-slate-200',
      )}
      data-testid="version-entry"
      data-version={entry.version}
      data-selected={selected}
      data-base={base}
    >
      <button
        type="button"
        onClick={onSelect}
        aria-current={selected ? 'step' : undefined}
        className={cn('w-full cursor-pointer rounded-lg p-3 text-left', selected ? '' : 'hover:bg-slate-50')}
        data-testid="version-select"
      >
        <div className="flex items-baseline gap-2">
          <span className="shrink-0 font-mono text-xs text-slate-600">#{entry.version}</span>
          <span
            className="min-w-0 flex-1 text-sm font-medium break-words text-slate-900"
            data-testid="version-summary"
          >
            {entry.summary}
          </span>
          {base ? <Badge tone="outline">{t.fromTag}</Badge> : null}
          {selected && selection.base !== selection.version ? <Badge tone="indigo">{t.toTag}</Badge> : null}
          {current ? (
            <Badge tone="green" data-testid="version-current">
              {t.current}
            </Badge>
          ) : null}
        </div>
        <p className="mt-1 text-xs text-slate-600" data-testid="version-meta">
          {t.madeBy(entry.actor.name, when(entry.at))}
        </p>
      </button>
      {entry.executions.length > 0 ? (
        <div className="px-3 pb-3" data-testid="version-executions">
          <p className="mb-1 flex items-center gap-1 text-xs font-medium text-slate-600">
            <PlayCircle className="h-3.5 w-3.5" />
            {t.executions(entry.executions.length)}
          </p>
          <ul className="flex flex-wrap gap-1.5">
            {entry.executions.map((execution) => (
              <li key={execution.id}>
                <button
                  type="button"
                  onClick={() => onOpenExecution(execution.id)}
                  title={t.openExecution(when(execution.startedAt))}
                  className="cursor-pointer rounded-md border border-slate-200 bg-white px-2 py-0.5 text-xs text-indigo-700 hover:bg-indigo-50 hover:underline"
                  data-testid="version-execution"
                  data-execution-id={execution.id}
                >
                  {t.execution(
                    when(execution.startedAt),
                    queueCard.status[execution.status] ?? execution.status,
                  )}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </li>
  );
}

/**
 * The versions of the flow read so far, oldest first as the execution history reads, the current one marked
 * (once it is read: it is the newest).
 */
export function VersionTimeline({
  versions,
  currentVersion,
  selection,
  onSelect,
  onOpenExecution,
}: {
  versions: FlowVersion[];
  currentVersion: number | null;
  selection: VersionSelection;
  onSelect: (version: number) => void;
  onOpenExecution: (executionId: string) => void;
}) {
  const current = currentVersion;
  return (
    <ol className="flex flex-col gap-2" aria-label={t.timeline} data-testid="version-timeline">
      {versions.map((entry) => (
        <VersionEntry
          key={entry.version}
          entry={entry}
          current={entry.version === current}
          selection={selection}
          onSelect={() => onSelect(entry.version)}
          onOpenExecution={onOpenExecution}
        />
      ))}
    </ol>
  );
}

/**
 * Scrolls the timeline's own box so the entry is in it, never the page: `scrollIntoView` also scrolled the
 * window, and the screen opened with its title under the top bar.
 */
function showWithinTimeline(entry: HTMLElement) {
  const box = entry.closest<HTMLElement>('[data-version-timeline-scroll]');
  if (!box) return;
  const item = entry.getBoundingClientRect();
  const visible = box.getBoundingClientRect();
  if (item.top < visible.top) box.scrollTop -= visible.top - item.top;
  else if (item.bottom > visible.bottom) box.scrollTop += item.bottom - visible.bottom;
}
