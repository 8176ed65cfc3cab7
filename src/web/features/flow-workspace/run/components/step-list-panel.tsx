import { Loader2, Play, RotateCw } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { stepList as s } from '@/features/flow-workspace/strings';
import { cn } from '@/lib/cn';
import type { Execution } from '@/lib/execution-stream';
import type { Step } from '@/lib/steps-query';
import { runMode as t } from '@/lib/strings';
import { useMay } from '@/lib/workspace-roles';
import type { QuickRunActor } from '../api/use-quick-run';
import { useOpenStepCard } from './open-step-card';
import type { StepListResult, StepListRow } from './step-list-rows';
import { stepListRows } from './step-list-rows';
import { StatusGlyph, type StepDisplayStatus, statusTone } from './step-status-icon';
import { useExecuteStep } from './use-execute-step';

const resultTone = { approved: 'green', pending: 'amber', selected: 'indigo' } as const;
const resultText = { approved: t.approved, pending: t.pending, selected: t.selected } as const;

function StatusMark({ status, order, busy }: { status: StepDisplayStatus; order: number; busy: boolean }) {
  return (
    <span
      className={cn(
        'flex h-6 w-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold',
        statusTone[status],
      )}
    >
      <StatusGlyph status={status} order={order} busy={busy} size="h-4 w-4" />
    </span>
  );
}

function ResultRow({ result, order }: { result: StepListResult; order: number }) {
  return (
    <li
      className="flex items-center gap-2 text-xs text-slate-600"
      data-testid={`step-list-result-${order}`}
      data-result-id={result.id}
      data-state={result.state}
    >
      <span className="min-w-0 flex-1 truncate" title={result.label}>
        {result.label}
      </span>
      <Badge tone={resultTone[result.state]} className="px-2 py-0 text-[11px]">
        {resultText[result.state]}
      </Badge>
    </li>
  );
}

function StepListItem({
  row,
  execution,
  executionLoading,
  input,
  quickRun,
}: {
  row: StepListRow;
  execution: Execution | null;
  executionLoading: boolean;
  input: string;
  quickRun: QuickRunActor;
}) {
  const { step, run } = row;
  const { execute, busy, whyNot } = useExecuteStep({ step, execution, input, quickRun });
  const openStepCard = useOpenStepCard();
  const mayRun = useMay('run');

  return (
    <li
      className="flex flex-col gap-1.5 py-2.5"
      data-testid={`step-list-row-${step.order}`}
      data-step-id={step.id}
      data-status={row.status}
    >
      <div className="flex items-start gap-2">
        <StatusMark status={row.status} order={step.order} busy={busy} />
        <div className="min-w-0 flex-1">
          <button
            type="button"
            className="block w-full cursor-pointer truncate rounded text-left text-sm font-medium text-slate-800 hover:text-indigo-700 focus-visible:outline-2 focus-visible:outline-indigo-500"
            onClick={() => openStepCard(step.id)}
            title={s.openStep(step.order, step.name)}
          >
            {step.order}. {step.name}
          </button>
          <div className="mt-1 flex flex-wrap gap-1">
            <Badge tone="outline" className="px-2 py-0 text-[11px]">
              {t.outputMode[step.outputMode]}
            </Badge>
            {step.outputMode === 'multiple_choice' ? (
              <Badge tone="outline" className="px-2 py-0 text-[11px]">
                {t.choiceCount(step.choices.length)}
              </Badge>
            ) : null}
            {step.outputMode === 'loop' ? (
              <Badge tone="outline" className="px-2 py-0 text-[11px]">
                {t.loopMax(step.maxLoopIterations)}
              </Badge>
            ) : null}
            {row.inputFrom.map((order) => (
              <Badge key={order} tone="neutral" className="px-2 py-0 text-[11px]">
                {t.inputFrom(order)}
              </Badge>
            ))}
          </div>
        </div>
        {mayRun ? (
          <Button
            variant="ghost"
            size="icon"
            aria-label={s.run(run.label, step.order)}
            description={run.label}
            disabled={busy || executionLoading}
            disabledReason={whyNot}
            onClick={() => execute(run.rerun, run.loopIteration)}
            data-testid={`step-list-run-${step.order}`}
          >
            {busy ? (
              <Loader2 className="h-4 w-4 animate-spin" />
            ) : run.rerun ? (
              <RotateCw className="h-4 w-4" />
            ) : (
              <Play className="h-4 w-4 text-indigo-600" />
            )}
          </Button>
        ) : null}
      </div>
      {row.results.length > 0 ? (
        <ul className="ml-8 flex flex-col gap-1 border-l border-slate-100 pl-2">
          {row.results.map((result) => (
            <ResultRow key={result.id} result={result} order={step.order} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

/**
 * Every step of the flow at a glance: where it stands, what kind of output it gives, what it reads, its
 * latest results, and a button that runs its next work with what its Input box holds.
 */
export function StepListPanel({
  steps,
  execution,
  executionLoading,
  inputs,
  quickRun,
}: {
  steps: Step[];
  execution: Execution | null;
  /** The latest execution is still being looked up: running now could start a second one. */
  executionLoading: boolean;
  /** Typed input per step id. */
  inputs: Record<string, string>;
  quickRun: QuickRunActor;
}) {
  return (
    // The column stays in view while the cards scroll: a long list scrolls inside it instead of running off.
    <ol
      className="flex flex-col divide-y divide-slate-100 lg:max-h-[calc(100vh-17rem)] lg:overflow-y-auto lg:overscroll-contain lg:pr-1"
      aria-label={s.label}
      data-testid="step-list-panel"
    >
      {stepListRows(steps, execution).map((row) => (
        <StepListItem
          key={row.step.id}
          row={row}
          execution={execution}
          executionLoading={executionLoading}
          input={inputs[row.step.id] ?? ''}
          quickRun={quickRun}
        />
      ))}
    </ol>
  );
}
