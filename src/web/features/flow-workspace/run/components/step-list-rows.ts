import { versionsOf } from '@/features/flow-workspace/workspace/components/step-results';
import type { Execution } from '@/lib/execution-stream';
import type { Step } from '@/lib/steps-query';
import { runMode as t } from '@/lib/strings';
import { resultsOfStep } from '../../../../../domain/execution';
import { type ExecuteButton, executeButtonsFor } from './execute-buttons';
import { type StepDisplayStatus, stepDisplayStatus } from './step-status-icon';

export interface StepListResult {
  id: string;
  label: string;
  /** A choice step's pick is approved by the run itself: 'Selected', never Approved/Pending. */
  state: 'approved' | 'pending' | 'selected';
}

export interface StepListRow {
  step: Step;
  status: StepDisplayStatus;
  /** Orders of the steps whose results it takes as input. */
  inputFrom: number[];
  /** What its run button does: the step's first pending work, else a re-run. */
  run: ExecuteButton;
  /** Sub-rows: the latest version's results, for the output modes that give several or pick one. */
  results: StepListResult[];
}

const hasResultRows = (step: Step) => step.outputMode !== 'single';

/** Orders of the steps whose results a step takes as input; a source no longer in the flow is left out. */
export const inputSourceOrders = (step: Step, steps: readonly Step[]): number[] =>
  step.inputSources
    .map((id) => steps.find((s) => s.id === id)?.order)
    .filter((order): order is number => order !== undefined);

/** One row per step of the flow, in order, as the step list of run mode shows it. */
export function stepListRows(steps: Step[], execution: Execution | null): StepListRow[] {
  return steps.map((step) => {
    const [firstButton] = executeButtonsFor(step, execution);
    // The newest version is the one a step card shows until its pager is moved.
    const latest = execution ? (versionsOf(resultsOfStep(execution, step.id)).at(-1) ?? []) : [];
    return {
      step,
      status: stepDisplayStatus(execution, step),
      inputFrom: inputSourceOrders(step, steps),
      run: firstButton ?? { key: 'execute', label: t.execute, rerun: false },
      results: hasResultRows(step)
        ? latest.map((result) => ({
            id: result.id,
            label: result.label || t.resultLabelPlaceholder(step.order),
            state:
              step.outputMode === 'multiple_choice' ? 'selected' : result.approved ? 'approved' : 'pending',
          }))
        : [],
    };
  });
}
