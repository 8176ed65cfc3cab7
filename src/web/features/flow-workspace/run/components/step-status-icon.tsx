import { CheckCircle2, CircleStop, Loader2 } from 'lucide-react';
import { classNames } from '../../../../lib/class-names';
import type { Execution } from '../../../../lib/execution-stream';
import { runMode as t } from '../../../../lib/strings';

export type StepDisplayStatus = 'completed' | 'running' | 'stopped' | 'pending';

/**
 * Completed below the execution's currentStep, running at it, pending after it or with no
 * execution; on a stopped execution the step it stopped at shows as stopped.
 */
export function stepDisplayStatus(execution: Execution | null, order: number): StepDisplayStatus {
  if (!execution) return 'pending';
  if (execution.currentStep > order) return 'completed';
  if (execution.currentStep === order) return execution.status === 'stopped' ? 'stopped' : 'running';
  return 'pending';
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
  if (status === 'running') return <Loader2 className={classNames(size, busy && 'animate-spin')} />;
  if (status === 'stopped') return <CircleStop className={size} aria-label={t.stepStopped} />;
  return <>{order}</>;
}

/** Background and text colour of each status's mark. */
export const statusTone: Record<StepDisplayStatus, string> = {
  completed: 'bg-emerald-100 text-emerald-700',
  running: 'bg-indigo-100 text-indigo-700',
  stopped: 'bg-amber-100 text-amber-800',
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
      className={classNames(
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
