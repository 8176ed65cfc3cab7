import { GitCompare } from 'lucide-react';
import { useState } from 'react';
import { Link, useLocation, useParams, useSearch } from 'wouter';
import { FlowSubpageHeader } from '@/components/flow-subpage-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useDatasets } from '@/features/datasets';
import { useFlow } from '@/lib/flow-query';
import { formatDateTime } from '@/lib/format-date';
import { useRecordAccess } from '@/lib/workspace-roles';
import { type ExperimentSummary, useExperiments } from '../api/experiments';
import { experiments as t } from '../strings';
import { ExperimentForm } from './experiment-form';
import { compareOrder, latestPerVersion, statusOf } from './experiment-list';
import { comparePath, experimentPath, numberParam } from './paths';
import { StatusBadge } from './status-badge';

function ExperimentRow({
  experiment,
  datasetName,
  selected,
  onToggle,
  testId,
}: {
  experiment: ExperimentSummary;
  datasetName: string;
  selected?: boolean;
  onToggle?: (checked: boolean) => void;
  testId: string;
}) {
  const label = `${t.flowVersion(experiment.flowVersion)} · ${datasetName}`;
  return (
    <Card
      className="flex flex-wrap items-center gap-3 p-3"
      data-testid={testId}
      data-experiment-id={experiment.id}
    >
      {onToggle ? (
        <input
          type="checkbox"
          className="h-4 w-4"
          checked={selected}
          onChange={(event) => onToggle(event.target.checked)}
          aria-label={t.select(label)}
          data-testid="select-experiment"
        />
      ) : null}
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <Link
            href={experimentPath(experiment.id)}
            className="font-medium text-slate-900 hover:underline"
            data-testid="experiment-link"
          >
            {t.flowVersion(experiment.flowVersion)}
          </Link>
          <StatusBadge status={statusOf(experiment)} />
          {experiment.isBaseline ? (
            <Badge tone="indigo" data-testid="baseline-badge">
              {t.baseline}
            </Badge>
          ) : null}
        </div>
        <p className="mt-1 text-xs text-slate-500">
          {t.dataset(datasetName, experiment.datasetVersion)} ·{' '}
          {t.startedAt(formatDateTime(experiment.startedAt))}
        </p>
      </div>
      <span className="text-sm text-slate-700" data-testid="experiment-runs">
        {t.runs(experiment.runsFinished, experiment.runsTotal)}
      </span>
    </Card>
  );
}

/**
 * A flow's experiments: the newest of each version, all of them to pick two or more to compare, and the form
 * that starts one (for whoever may run the flow).
 */
export function ExperimentsPage() {
  const { flowId = '' } = useParams<{ flowId: string }>();
  const search = useSearch();
  const [, navigate] = useLocation();
  const flow = useFlow(flowId);
  const list = useExperiments(flowId);
  const datasets = useDatasets(flowId);
  const may = useRecordAccess(flow.data?.workspaceId);
  const [picked, setPicked] = useState<string[]>([]);
  const experiments = list.data ?? [];
  const datasetName = (id: string) => datasets.data?.find((d) => d.id === id)?.name ?? t.unknownDataset;
  const preset = { version: numberParam(search, 'version'), against: numberParam(search, 'against') };

  return (
    <div className="mx-auto max-w-5xl px-4 py-8" data-testid="experiments-page">
      <FlowSubpageHeader
        flowId={flowId}
        back={t.backToFlow}
        title={t.title}
        subtitle={flow.data ? t.subtitle(flow.data.name) : null}
      />
      <div className="mt-6 flex flex-col gap-6">
        {list.error && !list.isLoading ? (
          <p className="text-sm text-red-600" data-testid="experiments-load-failed">
            {t.loadFailed}
          </p>
        ) : null}
        {list.isLoading ? <Skeleton className="h-24" /> : null}
        {list.data && experiments.length === 0 ? (
          <p className="text-sm text-slate-600" data-testid="experiments-empty">
            {t.empty}
          </p>
        ) : null}
        {experiments.length > 0 ? (
          <section className="flex flex-col gap-3">
            <h2 className="text-lg font-semibold text-slate-900">{t.latestPerVersion}</h2>
            <ul className="flex flex-col gap-2" data-testid="latest-experiments">
              {latestPerVersion(experiments).map((experiment) => (
                <li key={experiment.id}>
                  <ExperimentRow
                    experiment={experiment}
                    datasetName={datasetName(experiment.datasetId)}
                    testId="latest-experiment-row"
                  />
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        {experiments.length > 0 ? (
          <section className="flex flex-col gap-3">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <h2 className="text-lg font-semibold text-slate-900">{t.allTitle}</h2>
              <div className="flex items-center gap-3">
                <span className="text-sm text-slate-600">{t.selected(picked.length)}</span>
                <Button
                  size="sm"
                  onClick={() => navigate(comparePath(compareOrder(picked, experiments)))}
                  disabledReason={picked.length < 2 ? t.compareHint : null}
                  data-testid="compare-selected"
                >
                  <GitCompare className="h-4 w-4" />
                  {t.compare}
                </Button>
              </div>
            </div>
            <p className="text-xs text-slate-500">{t.compareHint}</p>
            <ul className="flex flex-col gap-2" data-testid="experiments-list">
              {experiments.map((experiment) => (
                <li key={experiment.id}>
                  <ExperimentRow
                    experiment={experiment}
                    datasetName={datasetName(experiment.datasetId)}
                    selected={picked.includes(experiment.id)}
                    onToggle={(checked) =>
                      setPicked((now) =>
                        checked ? [...now, experiment.id] : now.filter((id) => id !== experiment.id),
                      )
                    }
                    testId="experiment-row"
                  />
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        {flow.data && may('run') ? (
          <ExperimentForm flowId={flowId} experiments={experiments} preset={preset} />
        ) : null}
      </div>
    </div>
  );
}
