import { useIsMutating } from '@tanstack/react-query';
import { useRef } from 'react';
import { useToast } from '@/components/ui/toast';
import { useRunStep } from '@/features/flow-workspace/api/run-step';
import type { Execution } from '@/lib/execution-stream';
import type { Step } from '@/lib/steps-query';
import { toasts, whyDisabled } from '@/lib/strings';
import { DEFAULT_USER_INPUT, runningRun } from '../../../../../domain/execution';
import { MESSAGES } from '../../../../../domain/execution/decide';
import type { QuickRunActor } from '../api/use-quick-run';

/** Whether a run-step mutation's variables are a run of this step. */
const runsStep = (variables: unknown, stepId: string) =>
  typeof variables === 'object' &&
  variables !== null &&
  'step' in variables &&
  (variables.step as Pick<Step, 'id'>).id === stepId;

/**
 * Running one step by hand, wherever its button sits (the step card, the step list): the input rule, the
 * default input, the toasts and what QuickRun is told are the same everywhere.
 */
export function useExecuteStep({
  step,
  execution,
  input,
  quickRun,
}: {
  step: Step;
  execution: Execution | null;
  /** What is typed in the step's Input box. */
  input: string;
  quickRun: QuickRunActor;
}) {
  const runStep = useRunStep(step.flowId, execution, {
    title: toasts.executionFailed,
    messageOr: toasts.executeStepFailed,
  });
  const toast = useToast();
  // Each place holds its own mutation; counting them all keeps a run started from one busy on the other
  // until the pushed StepRunStarted takes over.
  const startingRuns = useIsMutating({
    predicate: (mutation) => runsStep(mutation.state.variables, step.id),
  });
  const busy = startingRuns > 0 || (execution !== null && runningRun(execution, step.id) !== null);
  const needsInput = step.requiresUserInput && input.trim() === '';
  // A stopped execution runs nothing until it is reset: the buttons say so instead of answering 409.
  const stopped = execution?.status === 'stopped';

  // `busy` only changes on the next render: a double click's second click sees it false. This knows at once.
  const onTheWay = useRef(false);
  const execute = (rerun: boolean, loopIteration?: number) => {
    if (onTheWay.current || busy) return;
    if (needsInput) {
      toast({ title: toasts.inputRequired, description: toasts.inputRequiredText, variant: 'destructive' });
      return;
    }
    // A re-run goes with what is typed, else empty (the server applies the default input).
    const userInput = input.trim() ? input : rerun ? '' : DEFAULT_USER_INPUT;
    quickRun.send({ type: 'STEP_EXECUTE_STARTED', stepId: step.id });
    onTheWay.current = true;
    runStep.mutate(
      { step, userInput, ...(loopIteration === undefined ? {} : { loopIteration }) },
      {
        onSuccess: (answer) => {
          quickRun.send({ type: 'STEP_EXECUTED', stepId: step.id, execution: answer.execution });
          toast({
            title: toasts.stepExecuted,
            description: toasts.stepExecutedText(step.order),
            variant: 'success',
          });
        },
        onError: () => quickRun.send({ type: 'STEP_EXECUTE_FAILED', stepId: step.id }),
        onSettled: () => {
          onTheWay.current = false;
        },
      },
    );
  };

  // Why the step cannot be run now, for every button that runs it; busy shows itself by its spinner.
  const whyNot = stopped ? MESSAGES.stopped : needsInput ? whyDisabled.needsInput : null;
  return { execute, busy, needsInput, stopped, whyNot };
}
