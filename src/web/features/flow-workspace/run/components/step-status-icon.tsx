import { CheckCircle2, Loader2 } from 'lucide-react';
import { classNames } from '../../../../lib/class-names';
import type { Execution } from '../../../../lib/execution-stream';

export type StepDisplayStatus = 'completed' | 'running' | 'pending';

/** Spec §4: completed below the execution's currentStep, running at it, pending after it or with no execution. */
export function stepDisplayStatus(execution: Execution | null, order: number): StepDisplayStatus {
  if (!execution) return 'pending';
  if (execution.currentStep > order) return 'completed';
  if (execution.currentStep === order) return 'running';
  return 'pending';
}

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
        status === 'completed' && 'bg-emerald-100 text-emerald-700',
        status === 'running' && 'bg-indigo-100 text-indigo-700',
        status === 'pending' && 'bg-slate-100 text-slate-600',
      )}
      data-testid={`step-status-${order}`}
      data-status={status}
    >
      {status === 'completed' ? (
        <CheckCircle2 className="h-5 w-5" />
      ) : status === 'running' ? (
        <Loader2 className={classNames('h-5 w-5', busy && 'animate-spin')} />
      ) : (
        order
      )}
    </span>
  );
}
