import { useSelector } from '@xstate/react';
import { Play } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { quickRun as t } from '@/features/flow-workspace/strings';
import type { Step } from '@/lib/steps-query';
import type { QuickRunSnapshot } from '../../../../../machines/quick-run';
import type { QuickRunActor } from '../api/use-quick-run';

const pausedOn = (stepId: string) => (snapshot: QuickRunSnapshot) =>
  snapshot.matches({ quickRun: 'paused' }) && snapshot.context.pausedStepId === stepId;

/** QuickRun waits for this step's input. */
export const useQuickRunPausedOn = (quickRun: QuickRunActor, stepId: string) =>
  useSelector(quickRun, pausedOn(stepId));

/** QuickRun is about to run this step, or is running it. */
export const useQuickRunNextIs = (quickRun: QuickRunActor, stepId: string) =>
  useSelector(quickRun, (snapshot) => snapshot.context.next?.stepId === stepId);

/** Shown on the card of the step QuickRun paused on: runs it with what is typed, and QuickRun goes on. */
export function ResumeButton({
  quickRun,
  step,
  disabled,
  whyNot,
}: {
  quickRun: QuickRunActor;
  step: Step;
  disabled: boolean;
  /** Why the step cannot run now, or null. */
  whyNot: string | null;
}) {
  const paused = useQuickRunPausedOn(quickRun, step.id);
  if (!paused) return null;
  return (
    <Button
      size="sm"
      onClick={() => quickRun.send({ type: 'RESUME' })}
      disabled={disabled}
      disabledReason={whyNot}
      data-testid={`resume-step-${step.order}`}
    >
      <Play className="h-4 w-4" />
      {t.resume}
    </Button>
  );
}
