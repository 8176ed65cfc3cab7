import { HistoryDiff } from '@/components/history-diff';
import { Badge } from '@/components/ui/badge';
import { flowVersions as t } from '@/features/flow-workspace/strings';
import { cn } from '@/lib/cn';
import type { FlowVersionView } from '../api/get-flow-version';
import { compareVersions, type StepChangeKind, type StepComparison } from './version-comparison';

const kindTones = { added: 'green', removed: 'red', changed: 'amber', unchanged: 'neutral' } as const;

const kindBorders: Record<StepChangeKind, string> = {
  added: 'border-l-emerald-400',
  removed: 'border-l-red-400',
  changed: 'border-l-amber-400',
  unchanged: 'border-l-slate-200',
};

/** One step across the two versions; `alone` when both are the same version, which has nothing to compare. */
function StepChange({ change, alone }: { change: StepComparison; alone: boolean }) {
  const { step, kind } = change;
  return (
    <li
      className={cn('rounded-lg border border-l-4 border-slate-200 bg-white p-3', kindBorders[kind])}
      data-testid="version-step"
      data-step-id={step.id}
      data-kind={kind}
    >
      <div className="flex flex-wrap items-center gap-2">
        <span
          className={cn(
            'text-sm font-medium text-slate-900',
            kind === 'removed' && 'line-through decoration-red-400',
          )}
          data-testid="version-step-title"
        >
          {t.stepTitle(step.order, step.name)}
        </span>
        {alone ? null : (
          <Badge tone={kindTones[kind]} data-testid="version-step-kind">
            {t.stepKinds[kind]}
          </Badge>
        )}
      </div>
      {change.renamedFrom !== null ? (
        <p className="mt-1 text-xs text-amber-800" data-testid="version-step-renamed">
          {t.renamedFrom(change.renamedFrom)}
        </p>
      ) : null}
      {change.movedFrom !== null ? (
        <p className="mt-1 text-xs text-slate-600" data-testid="version-step-moved">
          {t.moved(change.movedFrom, step.order)}
        </p>
      ) : null}
      {change.fields.length > 0 ? (
        <p className="mt-1 text-xs text-slate-600" data-testid="version-step-fields">
          {t.otherFields(change.fields.map((field) => t.fields[field]))}
        </p>
      ) : null}
      {change.promptDiff ? (
        <HistoryDiff parts={change.promptDiff} />
      ) : (
        <details className="mt-2 text-xs" open={alone} data-testid="version-step-prompt">
          <summary className="cursor-pointer text-slate-600">{alone ? t.prompt : t.promptUnchanged}</summary>
          <p className="mt-1 max-h-48 overflow-y-auto whitespace-pre-wrap break-words rounded-md border border-slate-200 bg-slate-50 p-2 font-mono leading-relaxed text-slate-700">
            {step.systemPrompt || t.promptEmpty}
          </p>
        </details>
      )}
    </li>
  );
}

/** Two versions side by side as one: the flow's details that changed, then each step, with its prompt's diff. */
export function VersionComparisonView({ from, to }: { from: FlowVersionView; to: FlowVersionView }) {
  const sameVersion = from.version === to.version;
  const comparison = compareVersions(from, to);
  const { name, status, description } = comparison;
  return (
    <div
      className="flex flex-col gap-4"
      data-testid="version-comparison"
      data-from={from.version}
      data-to={to.version}
    >
      {sameVersion ? (
        <p className="text-sm text-slate-600" data-testid="version-comparison-note">
          {t.sameVersion(to.version)}
        </p>
      ) : !comparison.changed ? (
        <p className="text-sm text-slate-600" data-testid="version-comparison-note">
          {t.noChanges(from.version, to.version)}
        </p>
      ) : null}
      {name || status || description ? (
        <section className="flex flex-col gap-1" data-testid="version-flow-changes">
          <h3 className="text-sm font-semibold text-slate-800">{t.flowSection}</h3>
          {name ? (
            <p className="text-sm text-slate-700" data-testid="version-flow-name">
              {t.nameChanged(name.before, name.after)}
            </p>
          ) : null}
          {status ? (
            <p className="text-sm text-slate-700" data-testid="version-flow-status">
              {t.statusChanged(status.before, status.after)}
            </p>
          ) : null}
          {description ? (
            <div data-testid="version-flow-description">
              <p className="text-sm text-slate-700">{t.descriptionChanged}</p>
              <HistoryDiff parts={description} />
            </div>
          ) : null}
        </section>
      ) : null}
      <section className="flex flex-col gap-2">
        <h3 className="text-sm font-semibold text-slate-800">{t.stepsSection}</h3>
        {comparison.steps.length === 0 ? <p className="text-sm text-slate-500">{t.noSteps}</p> : null}
        <ol className="flex flex-col gap-2">
          {comparison.steps.map((change) => (
            <StepChange key={change.step.id} change={change} alone={sameVersion} />
          ))}
        </ol>
      </section>
    </div>
  );
}
