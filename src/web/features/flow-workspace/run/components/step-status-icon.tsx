import { CheckCircle2, CircleStop, Hourglass, Keyboard, Loader2 } from 'lucide-react';
import { cn } from '@/lib/cn';
import type { Execution } from '@/lib/execution-stream';
import type { Step } from '@/lib/steps-query';
import { runMode as t } from '@/lib/strings';
import { runningRun } from '../../../../../domain/execution';
import { pendingReviewOfStep, waitsForReview } from '../../../../../domain/execution/reviews';

export type StepDisplayStatus = 'completed' | 'running' | 'input' | 'review' | 'stopped' | 'pending';

/**
 * Completed below the execution's currentStep, running at it, pending after it or with no execution; on a
 * stopped execution the step it stopped at shows as stopped. A step at it that needs the user's input and
 * is not running waits for that input ('input'): nothing runs until the user types and executes. A step
 * whose results wait for another person's review waits for them ('review'), and the step after it does
 * not run until then: it is pending, not running.
 */
export function stepDisplayStatus(
  execution: Execution | null,
  step: Pick<Step, 'id' | 'order' | 'requiresUserInput'>,
): StepDisplayStatus {
  if (!execution) return 'pending';
  const running = runningRun(execution, step.id) !== null;
  if (!running && pendingReviewOfStep(execution, step.id)) return 'review';
  if (execution.currentStep > step.order) return 'completed';
  if (execution.currentStep !== step.order) return 'pending';
  if (execution.status === 'stopped') return 'stopped';
  if (!running && waitsForReview(execution)) return 'pending';
  return step.requiresUserInput && !running ? 'input' : 'running';
}

/** The mark of a step's status, in the step card and the step list alike. */
export function StatusGlyph({
  status,
  order,
  busy,
  size,
}: {
  status: StepDisplayStatus;
  order: number;
  busy: boolean;
  size: string;
}) {
  if (status === 'completed') return <CheckCircle2 className={size} />;
  if (status === 'running') return <Loader2 className={cn(size, busy && 'animate-spin')} />;
  if (status === 'stopped') return <CircleStop className={size} aria-label={t.stepStopped} />;
  if (status === 'input') return <Keyboard className={size} aria-label={t.waitingInput} />;
  if (status === 'review') return <Hourglass className={size} aria-label={t.waitingReview} />;
  return <>{order}</>;
}

/** Background and text colour of each status's mark. */
export const statusTone: Record<StepDisplayStatus, string> = {
  completed: 'bg-emerald-100 text-emerald-700',
  running: 'bg-indigo-100 text-indigo-700',
  stopped: 'bg-amber-100 text-amber-800',
  input: 'bg-amber-100 text-amber-800',
  review: 'bg-amber-100 text-amber-800',
  pending: 'bg-slate-100 text-slate-600',
};

/** The spinner turns only while a model call is actually in progress; at rest it marks the current step. */
export function StepStatusIcon({
  status,
  order,
  busy,
}: {
  status: StepDisplayStatus;
  order: number;
  busy: boolean;
}) {
  return (
    <span
      className={cn(
        'flex h-8 w-8 shrink-0 items-center justify-center rounded-full text-sm font-semibold',
        statusTone[status],
      )}
      data-testid={`step-status-${order}`}
      data-status={status}
    >
      <StatusGlyph status={status} order={order} busy={busy} size="h-5 w-5" />
    </span>
  );
}
