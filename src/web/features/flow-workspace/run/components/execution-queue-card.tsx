import { RotateCcw, Square } from 'lucide-react';
import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { useToast } from '@/components/ui/toast';
import { queueCard as t } from '@/features/flow-workspace/strings';
import { ExecutionStatusBadge } from '@/features/flow-workspace/workspace/components/execution-status-badge';
import type { Execution } from '@/lib/execution-stream';
import { toasts, whyDisabled } from '@/lib/strings';
import { useMay } from '@/lib/workspace-roles';
import { progress, runningRun, shownStatus } from '../../../../../domain/execution';
import { useResetExecution, useStopExecution } from '../api/execution-controls';

/** Where the execution stands: progress, Stop / Reset, and the steps it goes through (`children`). */
export function ExecutionQueueCard({
  execution,
  live,
  onStopQuickRun,
  children,
}: {
  execution: Execution | null;
  live: boolean;
  /** Stop and Reset end QuickRun first, so nothing runs by itself after them. */
  onStopQuickRun?: () => void;
  /** The step list, shown with or without an execution. */
  children?: ReactNode;
}) {
  const stop = useStopExecution();
  const reset = useResetExecution();
  const toast = useToast();
  const mayRun = useMay('run');

  if (!execution) {
    return (
      <Card className="p-5" data-testid="execution-queue">
        <h3 className="font-semibold text-slate-900">{t.title}</h3>
        <p className="mt-1 text-sm text-slate-500">{t.noExecution}</p>
        {children ? <div className="mt-4">{children}</div> : null}
      </Card>
    );
  }

  const percent = Math.round(progress(execution));
  const running = runningRun(execution) !== null;

  const onStop = () => {
    onStopQuickRun?.();
    stop.mutate(execution.id, {
      onSuccess: () => toast({ title: toasts.stopped, description: toasts.stoppedText, variant: 'success' }),
    });
  };
  const onReset = () => {
    onStopQuickRun?.();
    reset.mutate(execution.id, {
      onSuccess: () => toast({ title: toasts.resetSuccess, variant: 'success' }),
    });
  };

  return (
    <Card className="p-5" data-testid="execution-queue" data-execution-id={execution.id}>
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="font-semibold text-slate-900">{t.title}</h3>
        <ExecutionStatusBadge execution={execution} testId="execution-status" />
        <Badge tone={live ? 'green' : 'outline'} data-testid="live-indicator" data-live={live}>
          {live ? t.live : t.offline}
        </Badge>
        {mayRun ? (
          <div className="ml-auto flex gap-2">
            <Button
              variant="outline"
              size="sm"
              onClick={onStop}
              disabled={stop.isPending}
              disabledReason={execution.status !== 'running' && whyDisabled.notRunning}
              // With nothing running (a step waiting for input, say) Stop still ends the execution: it says so.
              description={shownStatus(execution) === 'waiting' ? t.stopWhileWaiting : null}
              data-testid="stop-execution"
            >
              <Square className="h-4 w-4" />
              {t.stop}
            </Button>
            <Button
              variant="outline"
              size="sm"
              onClick={onReset}
              disabled={reset.isPending}
              disabledReason={running && whyDisabled.resetWhileRunning}
              data-testid="reset-execution"
            >
              <RotateCcw className="h-4 w-4" />
              {t.reset}
            </Button>
          </div>
        ) : null}
      </div>
      <div className="mt-4">
        <div className="flex justify-end text-xs text-slate-500">
          <span data-testid="execution-progress-text">{percent}%</span>
        </div>
        <div
          className="mt-1 h-2 overflow-hidden rounded-full bg-slate-100"
          role="progressbar"
          aria-label={t.progressLabel}
          aria-valuenow={percent}
          aria-valuemin={0}
          aria-valuemax={100}
          data-testid="execution-progress"
        >
          <div
            className="h-full rounded-full bg-indigo-600 transition-all"
            style={{ width: `${percent}%` }}
          />
        </div>
      </div>
      {children ? <div className="mt-4">{children}</div> : null}
    </Card>
  );
}
