import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ResultReviewStatus } from '@/features/reviews';
import type { Execution } from '@/lib/execution-stream';
import type { Step } from '@/lib/steps-query';
import { runMode as t } from '@/lib/strings';
import { resultsOfStep } from '../../../../../domain/execution';
import { approvalBelongsToReview, reviewOfResult } from '../../../../../domain/execution/approval-rule';
import type { StepResult } from '../../../../../domain/execution/types';
import { ResultCard } from './result-card';
import { UnreviewedResultsNote } from './unreviewed-results-note';

/**
 * Each run of a step is one version of its results; re-running adds a version and overwrites nothing. A
 * loop's iterations are not versions of each other: version n holds the n-th run of every iteration.
 */
export function versionsOf(results: StepResult[]): StepResult[][] {
  const runsOfIteration = new Map<number, string[]>();
  const versions: StepResult[][] = [];
  for (const result of results) {
    const runs = runsOfIteration.get(result.loopIteration ?? 0) ?? [];
    runsOfIteration.set(result.loopIteration ?? 0, runs);
    if (!runs.includes(result.runId)) runs.push(result.runId);
    const version = runs.indexOf(result.runId);
    versions[version] = [...(versions[version] ?? []), result];
  }
  return versions.map((version) =>
    version.toSorted((a, b) => (a.loopIteration ?? 0) - (b.loopIteration ?? 0)),
  );
}

export function StepResults({ step, execution }: { step: Step; execution: Execution }) {
  const versions = versionsOf(resultsOfStep(execution, step.id));
  // null follows the newest version, so a new run shows up without touching the pager.
  const [chosen, setChosen] = useState<number | null>(null);
  if (versions.length === 0) return null;
  const index = chosen === null || chosen >= versions.length ? versions.length - 1 : chosen;
  const shown = versions[index] ?? [];
  // As the server recorded each run of the version (a loop's version holds one run per iteration).
  const shownRuns = new Set(shown.map((result) => result.runId));
  const unreviewed = execution.runs
    .filter((run) => shownRuns.has(run.runId))
    .flatMap((run) => run.unreviewedResults ?? []);

  return (
    <div className="flex flex-col gap-3" data-testid={`step-results-${step.order}`}>
      <div className="flex items-center justify-between">
        <h3 className="text-sm font-semibold text-slate-700">{t.results}</h3>
        {versions.length > 1 ? (
          <div className="flex items-center gap-1" data-testid={`version-pager-${step.order}`}>
            <Button
              variant="ghost"
              size="icon"
              aria-label={t.previousVersion}
              disabled={index === 0}
              onClick={() => setChosen(index - 1)}
            >
              <ChevronLeft className="h-4 w-4" />
            </Button>
            <span className="text-sm text-slate-600" data-testid={`version-label-${step.order}`}>
              {t.version(index + 1)}
            </span>
            <Button
              variant="ghost"
              size="icon"
              aria-label={t.nextVersion}
              disabled={index === versions.length - 1}
              onClick={() => setChosen(index + 1 === versions.length - 1 ? null : index + 1)}
            >
              <ChevronRight className="h-4 w-4" />
            </Button>
          </div>
        ) : null}
      </div>
      <UnreviewedResultsNote uses={unreviewed} testId={`step-unreviewed-${step.order}`} />
      {shown.map((result) => (
        <ResultCard
          key={result.id}
          result={result}
          outputMode={step.outputMode}
          reviewStatus={
            approvalBelongsToReview(execution, result.id) ? (
              <ResultReviewStatus
                review={reviewOfResult(execution, result.id)}
                workspaceId={execution.workspaceId}
                testId={`result-review-status-${result.id}`}
              />
            ) : null
          }
        />
      ))}
    </div>
  );
}
