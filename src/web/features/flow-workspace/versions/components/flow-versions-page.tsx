import { ArrowLeft, ArrowRight, FlaskConical, RotateCcw } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { Link, useLocation, useParams, useSearch } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { LoadMore } from '@/components/ui/load-more';
import { runBothPath } from '@/features/experiments';
import { HistoryDialog } from '@/features/flow-workspace/history/components/history-dialog';
import { flowVersions as t } from '@/features/flow-workspace/strings';
import {
  FlowLoading,
  FlowNotFound,
  isMissingFlow,
} from '@/features/flow-workspace/workspace/components/flow-workspace-page';
import { messageOf } from '@/lib/api-client';
import { excerptOf } from '@/lib/excerpt';
import { useFlow } from '@/lib/flow-query';
import { formatDateTime } from '@/lib/format-date';
import { itemsOf, useReadUntil } from '@/lib/paged-list';
import { useFlowVersion } from '../api/get-flow-version';
import { type FlowVersion, useFlowVersions } from '../api/get-flow-versions';
import { RestoreVersionDialog } from './restore-version-dialog';
import { VersionComparisonView } from './version-comparison-view';
import {
  searchWithSelection,
  selectionRead,
  type VersionSelection,
  versionSelectionOf,
} from './version-selection';
import { VersionTimeline } from './version-timeline';

const selectClasses =
  'h-9 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200';

function VersionSelect({
  label,
  value,
  versions,
  onChange,
  testId,
}: {
  label: string;
  value: number;
  versions: FlowVersion[];
  onChange: (version: number) => void;
  testId: string;
}) {
  const id = useId();
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-xs font-medium text-slate-600">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
        className={selectClasses}
        data-testid={testId}
      >
        {versions.map((entry) => (
          <option key={entry.version} value={entry.version}>
            {t.versionOption(entry.version, excerptOf(entry.summary, 48))}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Both versions of the comparison, read once each (a version never changes). */
function Comparison({ flowId, selection }: { flowId: string; selection: VersionSelection }) {
  const from = useFlowVersion(flowId, selection.base);
  const to = useFlowVersion(flowId, selection.version);
  const error = from.error ?? to.error;
  if (error) return <p className="text-sm text-red-600">{messageOf(error, t.loadFailed)}</p>;
  if (!from.data || !to.data) {
    return (
      <p className="text-sm text-slate-500" data-testid="version-comparison-loading">
        {t.loading}
      </p>
    );
  }
  return <VersionComparisonView from={from.data} to={to.data} />;
}

/** The chosen version: who made it and what it changed, its restore, and the comparison of any two. */
function VersionPane({
  flowId,
  versions,
  currentVersion,
  selection,
  onSelect,
}: {
  flowId: string;
  versions: FlowVersion[];
  currentVersion: number | null;
  selection: VersionSelection;
  onSelect: (selection: { version: number; base?: number }) => void;
}) {
  const [restoreOpen, setRestoreOpen] = useState(false);
  const entry = versions.find((v) => v.version === selection.version)!;
  const current = currentVersion === entry.version;
  return (
    <div className="flex min-w-0 flex-col gap-4" data-testid="version-pane" data-version={entry.version}>
      <Card className="flex flex-wrap items-start gap-3 p-4">
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <h2 className="text-lg font-semibold text-slate-900" data-testid="version-title">
              {t.version(entry.version)}
            </h2>
            {current ? <Badge tone="green">{t.current}</Badge> : null}
          </div>
          <p className="mt-1 text-sm break-words text-slate-700">{entry.summary}</p>
          <p className="mt-1 text-xs text-slate-500">
            {t.madeBy(entry.actor.name, formatDateTime(entry.at))}
          </p>
        </div>
        {current ? null : (
          <Button
            variant="outline"
            size="sm"
            onClick={() => setRestoreOpen(true)}
            data-testid="restore-version"
          >
            <RotateCcw className="h-4 w-4" />
            {t.restore}
          </Button>
        )}
      </Card>
      <Card className="flex flex-col gap-4 p-4" data-testid="version-compare">
        <h2 className="font-semibold text-slate-900">{t.compare}</h2>
        <div className="grid grid-cols-1 items-end gap-2 sm:grid-cols-[minmax(0,1fr)_auto_minmax(0,1fr)]">
          <VersionSelect
            label={t.compareFrom}
            value={selection.base}
            versions={versions}
            onChange={(base) => onSelect({ version: selection.version, base })}
            testId="compare-from"
          />
          <ArrowRight className="mb-2.5 hidden h-4 w-4 text-slate-400 sm:block" />
          <VersionSelect
            label={t.compareTo}
            value={selection.version}
            versions={versions}
            onChange={(version) => onSelect({ version, base: selection.base })}
            testId="compare-to"
          />
        </div>
        {selection.base !== selection.version ? (
          <div>
            <Link
              href={runBothPath(
                flowId,
                Math.min(selection.base, selection.version),
                Math.max(selection.base, selection.version),
              )}
              className={buttonClasses('outline', 'sm')}
              title={t.runBothHint(
                Math.min(selection.base, selection.version),
                Math.max(selection.base, selection.version),
              )}
              data-testid="run-both-versions"
            >
              <FlaskConical className="h-4 w-4" />
              {t.runBoth}
            </Link>
          </div>
        ) : null}
        <Comparison flowId={flowId} selection={selection} />
      </Card>
      <RestoreVersionDialog
        flowId={flowId}
        version={entry.version}
        open={restoreOpen}
        onOpenChange={setRestoreOpen}
        onRestored={(version) => onSelect({ version })}
      />
    </div>
  );
}

function FlowVersions({ flowId }: { flowId: string }) {
  const flow = useFlow(flowId);
  const versions = useFlowVersions(flowId);
  const search = useSearch();
  const [location, navigate] = useLocation();
  const [executionId, setExecutionId] = useState<string | null>(null);
  const paneRef = useRef<HTMLDivElement>(null);
  const list = itemsOf(versions.data);
  const numbers = list.map((entry) => entry.version);
  // Oldest first, page by page: the pages up to the versions the URL names (the newest when it names none).
  const read = selectionRead(search, numbers, !versions.hasNextPage);
  useReadUntil(versions, read);

  if (flow.isLoading || versions.isLoading || (!read && !versions.error)) {
    return <FlowLoading testId="flow-history-loading" />;
  }
  if (isMissingFlow(flow.error)) return <FlowNotFound />;
  const error = flow.error ?? versions.error;
  if (error || !flow.data) {
    return <p className="py-10 text-center text-red-700">{messageOf(error, t.loadFailed)}</p>;
  }
  const selection = versionSelectionOf(search, numbers);
  // The current version is the newest: known once the last page is read.
  const currentVersion = versions.hasNextPage ? null : (numbers.at(-1) ?? null);
  const select = (next: { version: number; base?: number }) =>
    navigate(`${location}${searchWithSelection(search, next)}`);

  return (
    <div className="flex flex-col gap-4">
      <header className="flex items-center gap-3 border-b border-slate-200 pb-4">
        <Link
          href={`/flows/${flowId}`}
          className={buttonClasses('ghost', 'icon')}
          aria-label={t.back}
          title={t.back}
          data-testid="flow-history-back"
        >
          <ArrowLeft className="h-4 w-4" />
        </Link>
        <div className="min-w-0">
          <h1 className="text-xl font-bold text-slate-900" data-testid="flow-history-title">
            {t.title}
          </h1>
          <p className="truncate text-sm text-slate-500" data-testid="flow-history-flow-name">
            {flow.data.name}
          </p>
        </div>
      </header>
      <p className="text-sm text-slate-600">{t.description}</p>
      {selection === null ? (
        <p className="text-sm text-slate-500">{t.empty}</p>
      ) : (
        <div className="grid grid-cols-1 items-start gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
          <div
            className="max-h-[45dvh] min-w-0 overflow-y-auto p-1 lg:sticky lg:top-[4.5rem] lg:max-h-[calc(100dvh-5.5rem)]"
            data-version-timeline-scroll
          >
            <VersionTimeline
              versions={list}
              currentVersion={currentVersion}
              selection={selection}
              onSelect={(version) => {
                select({ version });
                // Below lg the version's pane sits under the timeline, often off screen.
                if (window.matchMedia('(min-width: 1024px)').matches) return;
                requestAnimationFrame(() =>
                  paneRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' }),
                );
              }}
              onOpenExecution={setExecutionId}
            />
            <LoadMore
              hasNextPage={versions.hasNextPage}
              isFetchingNextPage={versions.isFetchingNextPage}
              fetchNextPage={versions.fetchNextPage}
              testId="versions-load-more"
            />
          </div>
          <div ref={paneRef} className="min-w-0 scroll-mt-20">
            <VersionPane
              flowId={flowId}
              versions={list}
              currentVersion={currentVersion}
              selection={selection}
              onSelect={select}
            />
          </div>
        </div>
      )}
      <HistoryDialog
        flowId={flowId}
        executionId={executionId ?? undefined}
        open={executionId !== null}
        onOpenChange={(open) => {
          if (!open) setExecutionId(null);
        }}
      />
    </div>
  );
}

/** /flows/:flowId/versions: every version of the flow, any two compared, and a past one restored. */
export function FlowVersionsPage() {
  const { flowId } = useParams<{ flowId: string }>();
  return (
    <div className="mx-auto max-w-7xl px-4 py-6" data-testid="flow-history">
      <FlowVersions key={flowId} flowId={flowId} />
    </div>
  );
}
