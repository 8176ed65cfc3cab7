import {
  ArrowLeft,
  Database,
  FlaskConical,
  GitCommitVertical,
  History,
  Lightbulb,
  ListTree,
} from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { Button, buttonClasses } from '@/components/ui/button';
import { datasetsPath } from '@/features/datasets';
import { experimentsPath, LatestExperiments } from '@/features/experiments';
import { HistoryDialog } from '@/features/flow-workspace/history/components/history-dialog';
import { workspace as t } from '@/features/flow-workspace/strings';
import { flowVersionsPath } from '@/features/flow-workspace/versions/components/flow-version-link';
import { cn } from '@/lib/cn';
import type { Flow } from '@/lib/flow-query';
import { useMay } from '@/lib/workspace-roles';
import { LogsDialog } from './logs-dialog';
import { SaveWorkspaceButton } from './save-workspace-button';
import { SuggestionsDialog } from './suggestions-dialog';

export const WORKSPACE_MODES = ['edit', 'run', 'chat', 'master'] as const;
export type WorkspaceMode = (typeof WORKSPACE_MODES)[number];

export function WorkspaceHeader({
  flow,
  mode,
  onModeChange,
}: {
  flow: Flow;
  mode: WorkspaceMode;
  onModeChange: (mode: WorkspaceMode) => void;
}) {
  const [logsOpen, setLogsOpen] = useState(false);
  const [historyOpen, setHistoryOpen] = useState(false);
  const [suggestionsOpen, setSuggestionsOpen] = useState(false);
  const mayRun = useMay('run');
  const mayChange = useMay('change');
  const mayReview = useMay('review');
  // Chat and master mode run the flow: only the modes the user may use are offered.
  const modes = WORKSPACE_MODES.filter((value) => mayRun || value === 'edit' || value === 'run');

  return (
    <header
      className="flex flex-col gap-4 border-b border-slate-200 pb-4 lg:flex-row lg:items-center"
      data-testid="workspace-header"
    >
      <div className="flex min-w-0 flex-1 items-center gap-3">
        <Link href="/flows" className={buttonClasses('ghost', 'icon')} aria-label={t.backToFlows}>
          <ArrowLeft className="h-4 w-4" />
        </Link>
        <div className="min-w-0">
          <div className="flex items-center gap-2">
            <h1 className="truncate text-xl font-bold text-slate-900" data-testid="flow-title">
              {flow.name}
            </h1>
            {mayRun || mayChange || mayReview ? null : (
              <Badge tone="amber" title={t.readOnlyText} data-testid="flow-read-only">
                {t.readOnly}
              </Badge>
            )}
          </div>
          <p className="truncate text-sm text-slate-500">{flow.description}</p>
          <div className="mt-1">
            <LatestExperiments flowId={flow.id} />
          </div>
        </div>
      </div>
      {/* The modes are views of one page, not tabs with panels: a group of pressed/unpressed buttons. */}
      <fieldset className="inline-flex rounded-lg bg-slate-100 p-1" aria-label={t.modeSwitch}>
        {modes.map((value) => (
          <button
            key={value}
            type="button"
            aria-pressed={value === mode}
            onClick={() => {
              if (value !== mode) onModeChange(value);
            }}
            className={cn(
              'cursor-pointer rounded-md px-3 py-1.5 text-sm font-medium transition-colors',
              value === mode ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900',
            )}
            data-testid={`mode-${value}`}
          >
            {t.modes[value]}
          </button>
        ))}
      </fieldset>
      <div className="flex flex-wrap gap-2">
        {mayChange ? <SaveWorkspaceButton flow={flow} /> : null}
        <Button variant="outline" size="sm" onClick={() => setLogsOpen(true)} data-testid="open-logs">
          <ListTree className="h-4 w-4" />
          {t.logs}
        </Button>
        <Button variant="outline" size="sm" onClick={() => setHistoryOpen(true)} data-testid="open-history">
          <History className="h-4 w-4" />
          {t.history}
        </Button>
        <Link
          href={flowVersionsPath(flow.id)}
          className={buttonClasses('outline', 'sm')}
          data-testid="open-flow-history"
        >
          <GitCommitVertical className="h-4 w-4" />
          {t.versions}
        </Link>
        <Link
          href={datasetsPath(flow.id)}
          className={buttonClasses('outline', 'sm')}
          data-testid="open-datasets"
        >
          <Database className="h-4 w-4" />
          {t.datasets}
        </Link>
        <Link
          href={experimentsPath(flow.id)}
          className={buttonClasses('outline', 'sm')}
          data-testid="open-experiments"
        >
          <FlaskConical className="h-4 w-4" />
          {t.experiments}
        </Link>
        {mayChange && mayRun ? (
          <Button
            variant="outline"
            size="sm"
            onClick={() => setSuggestionsOpen(true)}
            data-testid="open-suggestions"
          >
            <Lightbulb className="h-4 w-4" />
            {t.aiSuggestions}
          </Button>
        ) : null}
      </div>
      <LogsDialog flowId={flow.id} open={logsOpen} onOpenChange={setLogsOpen} />
      <HistoryDialog flowId={flow.id} open={historyOpen} onOpenChange={setHistoryOpen} />
      <SuggestionsDialog flowId={flow.id} open={suggestionsOpen} onOpenChange={setSuggestionsOpen} />
    </header>
  );
}
