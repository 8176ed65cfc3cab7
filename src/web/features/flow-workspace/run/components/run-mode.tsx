import { useQueryClient } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { ListPlus, Plus } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { AddRunToDataset } from '@/features/datasets';
import { useCreateStep } from '@/features/flow-workspace/api/create-step';
import { useLiveExecution } from '@/features/flow-workspace/api/use-live-execution';
import { cn } from '@/lib/cn';
import { useLatestExecution } from '@/lib/execution-query';
import type { Flow } from '@/lib/flow-query';
import type { Step } from '@/lib/steps-query';
import { runMode as t } from '@/lib/strings';
import { useMay } from '@/lib/workspace-roles';
import { useQuickRun } from '../api/use-quick-run';
import { ExecutionQueueCard } from './execution-queue-card';
import { ExportResultsButton } from './export-results-button';
import { useOpenStepCard } from './open-step-card';
import { QuickRunControls } from './quick-run-controls';
import { StepCard } from './step-card';
import { StepListPanel } from './step-list-panel';

/** What the run screen was opened at: an execution other than the latest, and a step to bring into view. */
export interface RunTarget {
  executionId: string | null;
  stepId: string | null;
}

/**
 * The step the page was opened at comes into view and opens, once: after the execution has loaded, so
 * results rendering above it do not push it away again.
 */
function useBringStepIntoView(stepId: string | null, loaded: boolean) {
  const openStepCard = useOpenStepCard();
  const done = useRef(false);
  useEffect(() => {
    if (!stepId || !loaded || done.current) return;
    done.current = true;
    openStepCard(stepId);
  }, [stepId, loaded, openStepCard]);
}

/**
 * Run the flow's latest execution step by step, with each result arriving live; or the execution the link
 * named (a review's, which another member started), at its step.
 */
export function RunMode({
  flow,
  steps,
  target = { executionId: null, stepId: null },
}: {
  flow: Flow;
  steps: Step[];
  target?: RunTarget;
}) {
  const queryClient = useQueryClient();
  const latest = useLatestExecution(flow.id, queryClient);
  const shown = useLiveExecution(target.executionId ?? latest.data?.id);
  const { execution, streaming, live } = shown;
  const executionLoading = target.executionId ? shown.loading : latest.isLoading;
  useBringStepIntoView(target.stepId, execution !== null || shown.missing);
  const createStep = useCreateStep(flow.id);
  const openStepCard = useOpenStepCard();
  // The new step's card is at the end of the list, often below the screen: it opens and comes into view.
  const addStep = () => createStep.mutate(undefined, { onSuccess: (step) => openStepCard(step.id) });
  const { quickRun, executeAll } = useQuickRun(flow.id, execution);
  // Typed input lives in QuickRun, not in each card: it runs a step with what its Input box holds.
  const inputs = useSelector(quickRun, (snapshot) => snapshot.context.inputs);
  const mayRun = useMay('run');
  const mayChange = useMay('change');
  const typeInput = (stepId: string, input: string) =>
    quickRun.send({ type: 'INPUT_CHANGED', stepId, input });

  return (
    <div className="flex flex-col gap-4" data-testid="run-mode">
      <Card className="flex flex-col gap-3 p-5 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 className="text-lg font-semibold text-slate-900">{t.title}</h2>
          <p className="text-sm text-slate-500">{t.subtitle}</p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {steps.length > 0 && mayRun ? (
            <QuickRunControls
              quickRun={quickRun}
              executeAll={executeAll}
              execution={execution}
              steps={steps}
              executionLoading={executionLoading}
            />
          ) : null}
          <ExportResultsButton flowName={flow.name} steps={steps} execution={execution} />
          {mayChange && execution ? <AddRunToDataset flowId={flow.id} executionId={execution.id} /> : null}
          {mayChange ? (
            <Button size="sm" onClick={addStep} disabled={createStep.isPending} data-testid="add-step-button">
              <Plus className="h-4 w-4" />
              {t.addStep}
            </Button>
          ) : null}
        </div>
      </Card>

      {target.executionId && (shown.missing || isNotLatest(target.executionId, latest)) ? (
        <NamedExecutionNote flowId={flow.id} missing={shown.missing} />
      ) : null}

      {steps.length === 0 ? (
        <Card className="flex flex-col items-center p-10 text-center" data-testid="run-mode-empty">
          <ListPlus className="h-10 w-10 text-slate-300" />
          <p className="mt-3 text-slate-600">{t.empty}</p>
          {mayChange ? (
            <Button
              className="mt-4"
              onClick={addStep}
              disabled={createStep.isPending}
              data-testid="create-first-step"
            >
              <Plus className="h-4 w-4" />
              {t.createFirstStep}
            </Button>
          ) : null}
        </Card>
      ) : (
        <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,1fr)_18rem]">
          <div className="flex flex-col gap-4">
            {steps.map((step, i) => (
              <StepCard
                key={step.id}
                step={step}
                steps={steps}
                isFirst={i === 0}
                execution={execution}
                executionLoading={executionLoading}
                streaming={streaming}
                input={inputs[step.id] ?? ''}
                onInputChange={(input) => typeInput(step.id, input)}
                quickRun={quickRun}
                linked={step.id === target.stepId}
              />
            ))}
          </div>
          <div className="lg:sticky lg:top-20 lg:self-start">
            <ExecutionQueueCard
              execution={execution}
              live={live}
              onStopQuickRun={() => quickRun.send({ type: 'STOP' })}
            >
              <StepListPanel
                steps={steps}
                execution={execution}
                executionLoading={executionLoading}
                inputs={inputs}
                quickRun={quickRun}
              />
            </ExecutionQueueCard>
          </div>
        </div>
      )}
    </div>
  );
}

/**
 * Whether the execution a link named is not the one the run screen shows without it (the user's latest of
 * the flow); not known while that is read.
 */
export const isNotLatest = (
  executionId: string,
  latest: { isSuccess: boolean; data?: { id: string } | null | undefined },
): boolean => latest.isSuccess && latest.data?.id !== executionId;

/** The screen shows the execution a link named, not the flow's latest: say so, and lead to the latest. */
function NamedExecutionNote({ flowId, missing }: { flowId: string; missing: boolean }) {
  return (
    <p
      className={cn(
        'flex flex-wrap items-center gap-2 rounded-lg border p-3 text-sm',
        missing ? 'border-red-200 bg-red-50 text-red-800' : 'border-indigo-100 bg-indigo-50 text-indigo-900',
      )}
      role="status"
      data-testid="named-execution"
    >
      {missing ? t.namedExecutionMissing : t.namedExecution}
      <Link
        href={`/flows/${flowId}?mode=run`}
        className="font-medium underline"
        data-testid="show-latest-execution"
      >
        {t.showLatestExecution}
      </Link>
    </p>
  );
}
