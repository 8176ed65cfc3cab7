import { useQueries } from '@tanstack/react-query';
import { ArrowLeft, ChevronDown, ChevronRight, Download } from 'lucide-react';
import { Fragment, useId, useState } from 'react';
import { Link, useSearch } from 'wouter';
import { HistoryDiff } from '@/components/history-diff';
import { Badge } from '@/components/ui/badge';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Select } from '@/components/ui/field';
import { LoadMore } from '@/components/ui/load-more';
import { Skeleton } from '@/components/ui/skeleton';
import { useDataset } from '@/features/datasets';
import { messageOf } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatCount, formatDuration } from '@/lib/format-number';
import type { DiffPart } from '../../../../domain/execution/text-diff';
import {
  type CompareCell,
  type CompareSummary,
  type Comparison,
  compareCsvUrl,
  type Experiment,
  experimentQueryOptions,
  useComparison,
  useFlowVersionView,
} from '../api/experiments';
import { compare as t } from '../strings';
import {
  BUCKETS,
  COMPARE_FILTERS,
  type CompareFilter,
  cellMatches,
  deltaDirection,
  deltaText,
  distributions,
  type ItemRows,
  itemCell,
  itemMatches,
  itemsOf,
  scoreText,
  wordDiff,
} from './compare-model';
import { itemLabeler } from './item-labels';
import { experimentPath, experimentsPath } from './paths';

/** The experiments named by `?ids=`, in order (the baseline first). */
export const idsOf = (search: string) =>
  (new URLSearchParams(search).get('ids') ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');

/** An output against the baseline's, word by word: the baseline's words struck in red, this one's in green. */
function WordDiff({ parts }: { parts: DiffPart[] }) {
  // Whole, not in a scrolled box: shown on demand, and read with the page (and its keyboard).
  return (
    <HistoryDiff
      parts={parts}
      labels={{ before: t.diffBaseline, after: t.diffThis }}
      whole
      testId="word-diff"
    />
  );
}

const flagTones = { regressed: 'red', improved: 'green', changed: 'amber', missing: 'neutral' } as const;

const OUTPUT_PREVIEW = 240;

/** One experiment's side of a row: the output, its scores and deltas, flags, and on demand the diff. */
function Cell({
  cell,
  baseline,
  isBaseline,
  filters,
}: {
  cell: CompareCell | null | undefined;
  baseline: CompareCell | null | undefined;
  isBaseline: boolean;
  filters: readonly CompareFilter[];
}) {
  const [full, setFull] = useState(false);
  const [diff, setDiff] = useState(false);
  if (!cell) return <td className="px-2 py-2 align-top text-xs text-slate-400">—</td>;
  const output = cell.output;
  const long = output !== null && output.length > OUTPUT_PREVIEW;
  const shown = output === null ? null : full || !long ? output : `${output.slice(0, OUTPUT_PREVIEW)}…`;
  // Only where there is a difference to show.
  const canDiff =
    !isBaseline && output !== null && typeof baseline?.output === 'string' && baseline.output !== output;
  const matched = filters.some((filter) => cellMatches(cell, filter));
  return (
    <td
      className={cn('min-w-64 px-2 py-2 align-top', matched ? 'bg-amber-50/60' : '')}
      data-testid="compare-cell"
      data-flags={cell.flags.join(' ')}
    >
      {cell.flags.length > 0 || cell.reused ? (
        <div className="mb-1 flex flex-wrap gap-1">
          {cell.reused ? (
            <Badge tone="neutral" data-testid="cell-reused" title={t.reusedTitle}>
              {t.reused}
            </Badge>
          ) : null}
          {cell.flags.map((flag) => (
            <Badge key={flag} tone={flagTones[flag]} data-testid="cell-flag" data-flag={flag}>
              {t.flags[flag] ?? flag}
            </Badge>
          ))}
        </div>
      ) : null}
      {shown === null ? (
        <p className="text-xs italic text-slate-400">{t.noOutput}</p>
      ) : (
        <p className="whitespace-pre-wrap break-words text-xs text-slate-800" data-testid="cell-output">
          {shown}
        </p>
      )}
      {long ? (
        <button
          type="button"
          className="mt-1 cursor-pointer text-xs text-indigo-700 hover:underline"
          onClick={() => setFull((now) => !now)}
          data-testid="cell-more"
        >
          {full ? t.less : t.more}
        </button>
      ) : null}
      {cell.scores.length > 0 ? (
        <ul className="mt-2 flex flex-wrap gap-1" data-testid="cell-scores">
          {cell.scores.map((score) => {
            const delta = cell.deltas[score.name];
            const direction = delta === undefined ? 'same' : deltaDirection(score, delta);
            return (
              <li
                key={`${score.source}:${score.name}`}
                className="rounded bg-slate-100 px-1.5 py-0.5 text-[11px] text-slate-700"
                data-testid="cell-score"
              >
                {score.name}: <span className="font-semibold">{scoreText(score.kind, score.value)}</span>
                {delta !== undefined && direction !== 'same' ? (
                  <span
                    className={cn(
                      'ml-1 font-semibold',
                      direction === 'better' ? 'text-emerald-700' : 'text-red-700',
                    )}
                    data-testid="cell-delta"
                    data-direction={direction}
                  >
                    {deltaText(score.kind, delta)}
                  </span>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : null}
      {canDiff ? (
        <div className="mt-2">
          <button
            type="button"
            className="cursor-pointer text-xs text-indigo-700 hover:underline"
            onClick={() => setDiff((now) => !now)}
            data-testid="show-diff"
          >
            {diff ? t.hideDiff : t.showDiff}
          </button>
          {diff ? <WordDiff parts={wordDiff(baseline!.output!, output)} /> : null}
        </div>
      ) : null}
    </td>
  );
}

function ItemGroup({
  item,
  label,
  stepName,
  columns,
  filters,
}: {
  item: ItemRows;
  label: string;
  stepName: (stepId: string) => string;
  columns: number;
  filters: readonly CompareFilter[];
}) {
  const [open, setOpen] = useState(false);
  const cells = Array.from({ length: columns }, (_, index) => itemCell(item, index));
  const rows = [...(item.whole ? [item.whole] : []), ...item.steps];
  return (
    <>
      <tr
        className="border-t border-slate-200 bg-white"
        data-testid="compare-item"
        data-item-id={item.itemId}
      >
        <th
          scope="row"
          className="w-56 min-w-40 px-2 py-2 text-left align-top text-sm font-medium text-slate-900"
        >
          <button
            type="button"
            className="flex cursor-pointer items-start gap-1 text-left hover:text-indigo-700"
            onClick={() => setOpen((now) => !now)}
            aria-expanded={open}
            data-testid="expand-item"
          >
            {open ? (
              <ChevronDown className="mt-0.5 h-4 w-4 shrink-0" />
            ) : (
              <ChevronRight className="mt-0.5 h-4 w-4 shrink-0" />
            )}
            <span>{label}</span>
          </button>
          <span className="sr-only">{open ? t.collapse : t.expand}</span>
        </th>
        {cells.map((cell, index) => (
          <Cell
            // biome-ignore lint/suspicious/noArrayIndexKey: the columns are the experiments, in a fixed order
            key={index}
            cell={cell}
            baseline={cells[0]}
            isBaseline={index === 0}
            filters={filters}
          />
        ))}
      </tr>
      {open
        ? rows.map((row) => (
            <tr
              key={row.stepId ?? 'whole'}
              className="bg-slate-50/70"
              data-testid="compare-step-row"
              data-step-id={row.stepId ?? ''}
            >
              <th
                scope="row"
                className="px-2 py-2 pl-7 text-left align-top text-xs font-medium text-slate-600"
              >
                {row.stepId === null ? t.wholeRun : stepName(row.stepId)}
              </th>
              {row.cells.map((cell, index) => (
                <Cell
                  key={cell.experimentId}
                  cell={cell}
                  baseline={row.cells[0]}
                  isBaseline={index === 0}
                  filters={filters}
                />
              ))}
            </tr>
          ))
        : null}
    </>
  );
}

const percent = (value: number | null | undefined) =>
  value === null || value === undefined ? '—' : `${Math.round(value * 100)}%`;
const fixed = (value: number | null | undefined, digits = 2) =>
  value === null || value === undefined ? '—' : value.toFixed(digits);

/** Per experiment: pass rates, means, tokens, times and what the review says, over one scope. */
function Summary({
  comparison,
  headers,
  stepName,
}: {
  comparison: Comparison;
  headers: string[];
  stepName: (stepId: string) => string;
}) {
  const scopeId = useId();
  const stepIds = [
    ...new Set(comparison.summaries.map((s) => s.stepId).filter((id): id is string => id !== null)),
  ];
  const [scope, setScope] = useState('');
  const of = (experimentId: string): CompareSummary | undefined =>
    comparison.summaries.find((s) => s.experimentId === experimentId && (s.stepId ?? '') === scope);
  const summaries = comparison.experimentIds.map(of);
  const passNames = [...new Set(summaries.flatMap((s) => Object.keys(s?.passRates ?? {})))];
  const meanNames = [...new Set(summaries.flatMap((s) => Object.keys(s?.means ?? {})))];
  const lines: Array<[string, (s: CompareSummary) => string]> = [
    [t.rows, (s) => formatCount(s.rows)],
    [t.regressedCount, (s) => formatCount(s.regressed)],
    [t.improvedCount, (s) => formatCount(s.improved)],
    [t.changedCount, (s) => formatCount(s.changed)],
    [t.missingCount, (s) => formatCount(s.missing)],
    ...passNames.map((name): [string, (s: CompareSummary) => string] => [
      t.passRate(name),
      (s) => percent(s.passRates[name]),
    ]),
    ...meanNames.map((name): [string, (s: CompareSummary) => string] => [
      t.mean(name),
      (s) => fixed(s.means[name]),
    ]),
    [t.tokens, (s) => `${formatCount(s.inputTokens)} / ${formatCount(s.outputTokens)}`],
    [t.cost, (s) => fixed(s.costUsd, 4)],
    [t.p50, (s) => (s.p50Ms === null ? '—' : formatDuration(Math.round(s.p50Ms)))],
    [t.p95, (s) => (s.p95Ms === null ? '—' : formatDuration(Math.round(s.p95Ms)))],
    [t.editRate, (s) => percent(s.editRate)],
    [t.editDistance, (s) => fixed(s.meanEditDistance, 1)],
    [t.secondsToApprove, (s) => fixed(s.meanSecondsToApprove, 1)],
    [t.judgeAgreement, (s) => t.agreement(s.judgeAgreement.rate, s.judgeAgreement.compared)],
    [
      t.judgeUsage,
      (s) =>
        s.judgeUsage === null
          ? '—'
          : t.judgeCalls(s.judgeUsage.calls, s.judgeUsage.inputTokens, s.judgeUsage.outputTokens),
    ],
  ];
  return (
    <Card className="p-5" data-testid="compare-summary">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-semibold text-slate-900">{t.summaryTitle}</h2>
        <div className="flex items-center gap-2">
          <label htmlFor={scopeId} className="text-sm text-slate-600">
            {t.summaryStep}
          </label>
          <Select
            id={scopeId}
            className="h-9 w-56"
            value={scope}
            onChange={(event) => setScope(event.target.value)}
            data-testid="summary-scope"
          >
            <option value="">{t.allSteps}</option>
            {stepIds.map((stepId) => (
              <option key={stepId} value={stepId}>
                {stepName(stepId)}
              </option>
            ))}
          </Select>
        </div>
      </div>
      <div className="mt-3 overflow-x-auto">
        <table className="w-full border-collapse text-left text-sm">
          <thead>
            <tr className="border-b border-slate-200 text-xs text-slate-500">
              <th className="px-2 py-2">
                <span className="sr-only">{t.summaryStep}</span>
              </th>
              {headers.map((header) => (
                <th key={header} className="px-2 py-2 font-semibold text-slate-700">
                  {header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {lines.map(([label, value]) => (
              <tr key={label} className="border-b border-slate-100" data-testid="summary-line">
                <th scope="row" className="px-2 py-1.5 text-left text-xs font-medium text-slate-600">
                  {label}
                </th>
                {summaries.map((summary, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the columns are the experiments, in a fixed order
                  <td key={index} className="px-2 py-1.5 tabular-nums text-slate-800">
                    {summary ? value(summary) : '—'}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}

const BAR_COLORS = ['bg-slate-500', 'bg-indigo-500', 'bg-emerald-500', 'bg-amber-500', 'bg-rose-500'];

/** Each number or boolean score's distribution per experiment: a small bar chart of BUCKETS bars each. */
function Charts({ comparison, headers }: { comparison: Comparison; headers: string[] }) {
  const charts = distributions(comparison.rows, comparison.experimentIds.length);
  return (
    <Card className="p-5" data-testid="compare-charts">
      <h2 className="text-lg font-semibold text-slate-900">{t.chartsTitle}</h2>
      {comparison.nextCursor !== null ? (
        <p className="mt-1 text-xs text-slate-500" data-testid="compare-charts-partial">
          {t.chartsOfLoaded(comparison.rows.length)}
        </p>
      ) : null}
      {charts.length === 0 ? <p className="mt-2 text-sm text-slate-500">{t.noScores}</p> : null}
      <div className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {charts.map((chart) => {
          const most = Math.max(1, ...chart.counts.flat());
          return (
            <figure
              key={chart.name}
              className="rounded-lg border border-slate-200 p-3"
              data-testid="score-chart"
            >
              <figcaption className="text-sm font-medium text-slate-800">{t.chartOf(chart.name)}</figcaption>
              <div className="mt-2 flex flex-col gap-2">
                {chart.counts.map((buckets, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the experiments, in a fixed order
                  <div key={index} className="flex items-end gap-2">
                    <span
                      className="w-32 shrink-0 truncate text-[11px] text-slate-600"
                      title={headers[index]}
                    >
                      {headers[index]}
                    </span>
                    <div
                      className="flex h-10 flex-1 items-end gap-0.5 border-b border-slate-300"
                      role="img"
                      aria-label={`${headers[index]}: ${buckets.join(', ')}`}
                    >
                      {buckets.map((count, bucket) => (
                        <div
                          // biome-ignore lint/suspicious/noArrayIndexKey: the buckets, in a fixed order
                          key={bucket}
                          className={cn('flex-1 rounded-t-sm', BAR_COLORS[index % BAR_COLORS.length])}
                          style={{ height: `${(count / most) * 100}%`, minHeight: count > 0 ? 2 : 0 }}
                          title={String(count)}
                        />
                      ))}
                    </div>
                  </div>
                ))}
              </div>
              <div className="mt-1 flex justify-between pl-34 text-[10px] text-slate-500">
                <span>{scoreText(chart.kind === 'boolean' ? 'number' : chart.kind, chart.min)}</span>
                <span>{scoreText(chart.kind === 'boolean' ? 'number' : chart.kind, chart.max)}</span>
              </div>
              <span className="sr-only">{BUCKETS}</span>
            </figure>
          );
        })}
      </div>
    </Card>
  );
}

/**
 * /experiments/compare?ids=a,b[,c]: the experiments side by side, the first the baseline. Per dataset item
 * (opened to its steps) each one's output, scores, deltas and flags, filtered on demand; a summary per
 * experiment, the scores' distributions, and the comparison as CSV.
 */
export function ComparePage() {
  const ids = idsOf(useSearch());
  const comparison = useComparison(ids);
  const experiments = useQueries({ queries: ids.map((id) => experimentQueryOptions(id)) });
  const baseline: Experiment | undefined = experiments[0]?.data;
  const flowId = baseline?.flowId ?? '';
  const versions = [...new Set(experiments.map((e) => e.data?.flowVersion).filter((v) => v !== undefined))];
  const baselineView = useFlowVersionView(flowId, baseline?.flowVersion ?? null);
  const lastView = useFlowVersionView(flowId, versions.at(-1) ?? null);
  const dataset = useDataset(baseline?.datasetId ?? '', baseline?.datasetVersion);
  const [filters, setFilters] = useState<CompareFilter[]>([]);

  const steps = [...(lastView.data?.steps ?? []), ...(baselineView.data?.steps ?? [])];
  const stepName = (stepId: string) => steps.find((s) => s.id === stepId)?.name ?? t.unknownStep(stepId);
  const labelOf = itemLabeler(dataset.data?.items);
  const headers = ids.map((id, index) => {
    const version = experiments[index]?.data?.flowVersion;
    return version === undefined ? id.slice(0, 8) : t.experiment(index, version);
  });

  if (ids.length === 0)
    return (
      <p className="mx-auto mt-8 max-w-5xl px-4 text-sm text-slate-600" data-testid="compare-no-ids">
        {t.needIds}
      </p>
    );

  const items = comparison.data ? itemsOf(comparison.data.rows) : [];
  const shown = items.filter((item) => itemMatches(item, filters));

  return (
    <div className="mx-auto max-w-7xl px-4 py-8" data-testid="compare-page">
      {flowId ? (
        <Link href={experimentsPath(flowId)} className={buttonClasses('ghost', 'sm')}>
          <ArrowLeft className="h-4 w-4" />
          {t.backToList}
        </Link>
      ) : null}
      <div className="mt-4 flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">{t.title}</h1>
          <ul className="mt-1 flex flex-wrap gap-2 text-sm">
            {ids.map((id, index) => (
              <li key={id}>
                <Link href={experimentPath(id)} className="text-indigo-700 hover:underline">
                  {headers[index]}
                </Link>
              </li>
            ))}
          </ul>
        </div>
        <a
          href={compareCsvUrl(ids)}
          className={buttonClasses('outline', 'sm')}
          download="experiments.csv"
          data-testid="compare-csv"
        >
          <Download className="h-4 w-4" />
          {t.csv}
        </a>
      </div>
      {comparison.isLoading ? <Skeleton className="mt-6 h-40" /> : null}
      {comparison.error ? (
        <p className="mt-6 text-sm text-red-600" data-testid="compare-load-failed">
          {messageOf(comparison.error, t.loadFailed)}
        </p>
      ) : null}
      {comparison.data ? (
        <div className="mt-6 flex flex-col gap-6">
          <Summary comparison={comparison.data} headers={headers} stepName={stepName} />
          <Charts comparison={comparison.data} headers={headers} />
          <Card className="p-5">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <h2 className="text-lg font-semibold text-slate-900">{t.gridTitle}</h2>
              <fieldset className="flex flex-wrap items-center gap-1" data-testid="compare-filters">
                <legend className="sr-only">{t.filters}</legend>
                <Button
                  size="sm"
                  variant={filters.length === 0 ? 'secondary' : 'ghost'}
                  aria-pressed={filters.length === 0}
                  onClick={() => setFilters([])}
                  data-testid="filter-all"
                >
                  {t.filterAll}
                </Button>
                {COMPARE_FILTERS.map((filter) => {
                  const on = filters.includes(filter);
                  return (
                    <Button
                      key={filter}
                      size="sm"
                      variant={on ? 'secondary' : 'ghost'}
                      aria-pressed={on}
                      onClick={() =>
                        setFilters((now) => (on ? now.filter((f) => f !== filter) : [...now, filter]))
                      }
                      data-testid={`filter-${filter}`}
                    >
                      {t.filterNames[filter]}
                    </Button>
                  );
                })}
              </fieldset>
            </div>
            <div className="mt-3 overflow-x-auto">
              <table className="w-full border-collapse text-left" data-testid="compare-grid">
                <thead>
                  <tr className="border-b border-slate-200 text-xs text-slate-500">
                    <th className="px-2 py-2">{t.item}</th>
                    {headers.map((header, index) => (
                      <th key={ids[index]} className="px-2 py-2 font-semibold text-slate-700">
                        {header}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {shown.map((item) => (
                    <Fragment key={item.itemId}>
                      <ItemGroup
                        item={item}
                        label={labelOf(item.itemId)}
                        stepName={stepName}
                        columns={ids.length}
                        filters={filters}
                      />
                    </Fragment>
                  ))}
                </tbody>
              </table>
              {shown.length === 0 && !comparison.hasNextPage ? (
                <p className="mt-3 text-sm text-slate-500" data-testid="compare-no-rows">
                  {t.noRows}
                </p>
              ) : null}
              <LoadMore
                hasNextPage={comparison.hasNextPage}
                isFetchingNextPage={comparison.isFetchingNextPage}
                fetchNextPage={comparison.fetchNextPage}
                testId="compare-more"
              />
            </div>
          </Card>
        </div>
      ) : null}
    </div>
  );
}
