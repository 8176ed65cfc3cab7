import { Activity } from 'lucide-react';
import { Skeleton } from '@/components/ui/skeleton';
import { editMode as t } from '@/features/flow-workspace/strings';
import { ExecutionStatusBadge } from '@/features/flow-workspace/workspace/components/execution-status-badge';
import type { Execution } from '@/lib/execution-stream';
import { progress } from '../../../../../domain/execution';

/** Where the flow's latest execution stands, seen from the editor. */
export function ExecutionStatusCard({
  execution,
  loading,
}: {
  execution: Execution | null;
  loading: boolean;
}) {
  const current = execution?.steps.find((s) => s.order === execution.currentStep);
  return (
    <section
      className="rounded-lg border border-slate-200 bg-slate-50 p-3"
      data-testid="execution-status-card"
    >
      <h3 className="flex items-center gap-1.5 text-sm font-semibold text-slate-800">
        <Activity className="h-4 w-4 text-slate-500" />
        {t.executionStatus}
      </h3>
      {loading ? (
        <Skeleton className="mt-2 h-10 w-full" />
      ) : !execution ? (
        <p className="mt-1 text-sm text-slate-500" data-testid="execution-status-none">
          {t.noExecution}
        </p>
      ) : (
        <div className="mt-2 flex flex-col gap-2 text-sm" data-testid="execution-status-details">
          <div className="flex items-center justify-between gap-2">
            <ExecutionStatusBadge execution={execution} testId="edit-execution-status" />
            <span className="text-slate-600">
              {t.currentStepOf(execution.currentStep, execution.steps.length)}
            </span>
          </div>
          <div>
            <div className="flex justify-between text-xs text-slate-500">
              <span>{t.progress}</span>
              <span data-testid="edit-execution-progress">{Math.round(progress(execution))}%</span>
            </div>
            <div className="mt-1 h-2 overflow-hidden rounded-full bg-slate-200">
              <div
                className="h-full bg-indigo-500"
                style={{ width: `${Math.round(progress(execution))}%` }}
              />
            </div>
          </div>
          <p className="text-slate-600" data-testid="edit-execution-current-step">
            <span className="text-slate-500">{t.currentStep}: </span>
            {current ? t.stepTitle(current.order, current.name) : t.allStepsDone}
          </p>
        </div>
      )}
    </section>
  );
}
