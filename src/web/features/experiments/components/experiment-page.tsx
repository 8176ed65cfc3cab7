import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, ExternalLink, GitCompare, RefreshCw, Square, Star } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useParams, useSearch } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { useConfirm } from '@/components/ui/confirm-dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { useToast } from '@/components/ui/toast';
import { useDataset } from '@/features/datasets';
import { flowQueryOptions } from '@/lib/flow-query';
import { formatDateTime } from '@/lib/format-date';
import { toasts as common } from '@/lib/strings';
import { useOneAtATime } from '@/lib/use-one-at-a-time';
import { useRecordAccess } from '@/lib/workspace-roles';
import { scorerName } from '../../../../domain/experiment/scorer-definitions';
import { executionLink } from '../../../../domain/review-link';
import {
  type Experiment,
  experimentQueryOptions,
  hasEnded,
  useExperiment,
  useFlowVersionView,
  usePromote,
  useScoreAgain,
  useStopExperiment,
} from '../api/experiments';
import { outcomes, reviewModes, runStatuses, experimentPage as t } from '../strings';
import { stopReasonText } from './experiment-list';
import { itemLabeler } from './item-labels';
import { comparePath, experimentPath, experimentsPath, numberParam, runBothPath } from './paths';
import { StatusBadge } from './status-badge';

function Setting({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium text-slate-500">{label}</dt>
      <dd className="mt-0.5 break-words text-sm text-slate-800">{children}</dd>
    </div>
  );
}

const COUNTED = ['planned', 'running', 'waiting', 'interrupted', 'completed', 'failed', 'stopped'] as const;

function Progress({ experiment }: { experiment: Experiment }) {
  const { counts } = experiment;
  const done = counts.total === 0 ? 0 : Math.round((counts.finished / counts.total) * 100);
  return (
    <Card className="p-5" data-testid="experiment-progress">
      <div className="flex items-center justify-between gap-3">
        <h2 className="text-lg font-semibold text-slate-900">{t.progress}</h2>
        <span className="text-sm text-slate-700" data-testid="experiment-finished">
          {counts.finished}/{counts.total}
        </span>
      </div>
      <div
        className="mt-3 h-2 overflow-hidden rounded-full bg-slate-100"
        role="progressbar"
        aria-label={t.progress}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={done}
      >
        <div className="h-full bg-indigo-500 transition-all" style={{ width: `${done}%` }} />
      </div>
      <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-4">
        {COUNTED.map((key) => (
          <div key={key} className="rounded-lg bg-slate-50 p-2" data-testid={`count-${key}`}>
            <dt className="text-xs text-slate-500">{t.counts[key]}</dt>
            <dd className="text-lg font-semibold text-slate-900">{counts[key]}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

function Actions({
  experiment,
  mayRun,
  mayChange,
}: {
  experiment: Experiment;
  mayRun: boolean;
  mayChange: boolean;
}) {
  const toast = useToast();
  const confirm = useConfirm();
  const stop = useStopExperiment(experiment.id);
  const scoreAgain = useScoreAgain(experiment.id);
  const promote = usePromote(experiment.id);
  const stopOnce = useOneAtATime(stop);
  const scoreOnce = useOneAtATime(scoreAgain);
  const promoteOnce = useOneAtATime(promote);
  const ended = hasEnded(experiment.status);
  return (
    <div className="flex flex-wrap gap-2">
      {experiment.baselineId ? (
        <Link
          href={comparePath([experiment.baselineId, experiment.id])}
          className={buttonClasses('outline', 'sm')}
          data-testid="compare-with-baseline"
        >
          <GitCompare className="h-4 w-4" />
          {t.compareWithBaseline}
        </Link>
      ) : null}
      {mayRun && experiment.status === 'running' ? (
        <Button
          variant="outline"
          size="sm"
          disabled={stop.isPending}
          onClick={async () => {
            if (await confirm(t.stopQuestion, { confirmLabel: t.stop })) stopOnce(undefined);
          }}
          data-testid="stop-experiment"
        >
          <Square className="h-4 w-4" />
          {stop.isPending ? t.stopping : t.stop}
        </Button>
      ) : null}
      {mayRun && ended ? (
        <Button
          variant="outline"
          size="sm"
          disabled={scoreAgain.isPending}
          disabledReason={experiment.config.scorers.length === 0 ? t.noScorers : null}
          onClick={() =>
            scoreOnce(undefined, {
              onSuccess: () =>
                toast({ title: common.success, description: t.scoredAgain, variant: 'success' }),
            })
          }
          data-testid="score-again"
        >
          <RefreshCw className="h-4 w-4" />
          {t.scoreAgain}
        </Button>
      ) : null}
      {mayChange && experiment.status === 'completed' && !experiment.isBaseline ? (
        <Button
          variant="outline"
          size="sm"
          disabled={promote.isPending}
          onClick={() =>
            promoteOnce(undefined, {
              onSuccess: () => toast({ title: common.success, description: t.promoted, variant: 'success' }),
            })
          }
          data-testid="promote-experiment"
        >
          <Star className="h-4 w-4" />
          {t.promote}
        </Button>
      ) : null}
    </div>
  );
}

/** /experiments/:id: an experiment's settings, progress and runs, read every second until it has ended. */
export function ExperimentPage() {
  const { id = '' } = useParams<{ id: string }>();
  const query = useExperiment(id);
  // Run first of two versions: the newer one, to run against it once it has ended.
  const then = numberParam(useSearch(), 'then');
  const experiment = query.data;
  const flowId = experiment?.flowId ?? '';
  const flow = useQuery({ ...flowQueryOptions(flowId), enabled: flowId !== '' });
  const may = useRecordAccess(flow.data?.workspaceId);
  const version = useFlowVersionView(flowId, experiment?.flowVersion ?? null);
  const baselineId = experiment?.baselineId ?? '';
  const baseline = useQuery({ ...experimentQueryOptions(baselineId), enabled: baselineId !== '' });
  const dataset = useDataset(experiment?.datasetId ?? '', experiment?.datasetVersion);

  if (query.isLoading) return <Skeleton className="mx-auto mt-8 h-40 max-w-5xl" />;
  if (query.error || !experiment)
    return (
      <p className="mx-auto mt-8 max-w-5xl px-4 text-sm text-red-600" data-testid="experiment-load-failed">
        {t.loadFailed}
      </p>
    );
  const steps = version.data?.steps ?? [];
  const stepName = (stepId: string) => steps.find((s) => s.id === stepId)?.name ?? stepId.slice(0, 8);
  const labelOf = itemLabeler(dataset.data?.items);
  const mayRun = Boolean(flow.data) && may('run');
  const mayChange = Boolean(flow.data) && may('change');
  const { config } = experiment;

  return (
    <div className="mx-auto max-w-5xl px-4 py-8" data-testid="experiment-page">
      <Link href={experimentsPath(flowId)} className={buttonClasses('ghost', 'sm')}>
        <ArrowLeft className="h-4 w-4" />
        {t.backToList}
      </Link>
      <div className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <div className="flex flex-wrap items-center gap-2">
            <h1 className="text-2xl font-bold text-slate-900" data-testid="experiment-title">
              {t.title(experiment.flowVersion)}
            </h1>
            <StatusBadge status={experiment.status} />
            {experiment.isBaseline ? (
              <Badge tone="indigo" data-testid="baseline-badge">
                Baseline
              </Badge>
            ) : null}
          </div>
          <p className="mt-1 text-sm text-slate-600">
            {flow.data?.name} · {formatDateTime(experiment.startedAt)}
            {hasEnded(experiment.status) ? null : (
              <span className="ml-2 text-xs text-amber-700">{t.live}</span>
            )}
          </p>
        </div>
        <Actions experiment={experiment} mayRun={mayRun} mayChange={mayChange} />
      </div>

      <div className="mt-6 flex flex-col gap-6">
        {experiment.stopReason !== null ? (
          <p
            className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
            role="status"
            data-testid="stop-reason"
            data-reason={experiment.stopReason}
          >
            {stopReasonText(experiment)}
          </p>
        ) : null}
        {then !== undefined ? (
          <div
            className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-indigo-200 bg-indigo-50 p-3 text-sm text-indigo-900"
            data-testid="run-next-version"
          >
            <p>{hasEnded(experiment.status) ? t.thenReady(then) : t.thenWaiting(then)}</p>
            {hasEnded(experiment.status) ? (
              <Link
                href={runBothPath(flowId, experiment.flowVersion, then)}
                className={buttonClasses('primary', 'sm')}
                data-testid="run-next-version-link"
              >
                {t.thenRun(then)}
              </Link>
            ) : null}
          </div>
        ) : null}
        <Progress experiment={experiment} />
        <Card className="p-5" data-testid="experiment-settings">
          <h2 className="text-lg font-semibold text-slate-900">{t.settings}</h2>
          <dl className="mt-3 grid gap-3 sm:grid-cols-3">
            <Setting label={t.dataset}>
              {dataset.data?.name ?? '…'} ({t.datasetVersion(experiment.datasetVersion)})
            </Setting>
            <Setting label={t.baseline}>
              {experiment.baselineId ? (
                <Link
                  href={experimentPath(experiment.baselineId)}
                  className="text-indigo-700 underline"
                  data-testid="experiment-baseline-link"
                >
                  {baseline.data
                    ? t.baselineOf(baseline.data.flowVersion)
                    : experiment.baselineId.slice(0, 8)}
                </Link>
              ) : (
                t.none
              )}
            </Setting>
            <Setting label={t.reuseBefore}>
              {experiment.reuseBefore ? stepName(experiment.reuseBefore) : t.none}
            </Setting>
            <Setting label={t.repetitions}>{config.repetitions}</Setting>
            <Setting label={t.concurrency}>{config.concurrency}</Setting>
          </dl>
          <div className="mt-4 overflow-x-auto">
            <table className="w-full border-collapse text-left text-sm">
              <thead>
                <tr className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
                  <th className="px-2 py-2">Step</th>
                  <th className="px-2 py-2">{t.review}</th>
                  <th className="px-2 py-2">{t.models}</th>
                </tr>
              </thead>
              <tbody>
                {experiment.stepIds.map((stepId) => (
                  <tr key={stepId} className="border-b border-slate-100">
                    <td className="px-2 py-1.5">{stepName(stepId)}</td>
                    <td className="px-2 py-1.5">{reviewModes[config.review[stepId] ?? 'human']}</td>
                    <td className="px-2 py-1.5 font-mono text-xs">
                      {config.models[stepId] ?? steps.find((s) => s.id === stepId)?.model ?? '—'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="mt-4">
            <h3 className="text-sm font-semibold text-slate-900">{t.scorers}</h3>
            {config.scorers.length === 0 ? (
              <p className="text-sm text-slate-500">{t.none}</p>
            ) : (
              <ul className="mt-1 flex flex-wrap gap-2" data-testid="experiment-scorers">
                {config.scorers.map((scorer) => (
                  <li key={scorerName(scorer)}>
                    <Badge tone="outline">
                      {scorerName(scorer)}
                      {scorer.stepId ? ` → ${stepName(scorer.stepId)}` : ''}
                    </Badge>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </Card>

        <Card className="p-5">
          <h2 className="text-lg font-semibold text-slate-900">
            {t.runsTitle} ({experiment.runs.length})
          </h2>
          <div className="mt-3 overflow-x-auto">
            <table className="w-full border-collapse text-left text-sm" data-testid="experiment-runs">
              <thead>
                <tr className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
                  <th className="px-2 py-2">{t.item}</th>
                  <th className="px-2 py-2">{t.repetition}</th>
                  <th className="px-2 py-2">{t.status}</th>
                  <th className="px-2 py-2">{t.outcome}</th>
                  <th className="px-2 py-2">{t.execution}</th>
                </tr>
              </thead>
              <tbody>
                {experiment.runs.map((run) => (
                  <tr
                    key={run.runKey}
                    className="border-b border-slate-100"
                    data-testid="experiment-run"
                    data-status={run.status}
                  >
                    <td className="px-2 py-1.5">{labelOf(run.itemId)}</td>
                    <td className="px-2 py-1.5">{run.repetition}</td>
                    <td className="px-2 py-1.5">{runStatuses[run.status] ?? run.status}</td>
                    <td className="px-2 py-1.5">
                      {run.outcome ? (
                        <Badge
                          tone={
                            run.outcome === 'completed'
                              ? 'green'
                              : run.outcome === 'failed'
                                ? 'red'
                                : 'neutral'
                          }
                        >
                          {outcomes[run.outcome] ?? run.outcome}
                        </Badge>
                      ) : (
                        '—'
                      )}
                      {run.reusedFrom ? (
                        <span className="ml-2 text-xs text-slate-500" title={run.reusedFrom}>
                          {t.reused}
                        </span>
                      ) : null}
                    </td>
                    <td className="px-2 py-1.5">
                      {run.executionId ? (
                        <Link
                          href={executionLink(flowId, run.executionId)}
                          className="inline-flex items-center gap-1 text-indigo-700 hover:underline"
                          data-testid="run-execution-link"
                        >
                          <ExternalLink className="h-3.5 w-3.5" />
                          {run.status === 'waiting' ? t.reviewInExecution : t.openExecution}
                        </Link>
                      ) : (
                        '—'
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Card>
      </div>
    </div>
  );
}
