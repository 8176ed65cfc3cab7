import type { UseMutationResult } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { FastForward, Loader2 } from 'lucide-react';
import { useEffect } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { useToast } from '@/components/ui/toast';
import { quickRun as t } from '@/features/flow-workspace/strings';
import { messageOf } from '@/lib/api-client';
import type { Execution } from '@/lib/execution-stream';
import type { Step } from '@/lib/steps-query';
import { toasts, whyDisabled } from '@/lib/strings';
import { MESSAGES } from '../../../../../domain/execution/decide';
import { type QuickRunStatus, quickRunStatusOf } from '../../../../../machines/quick-run';
import type { QuickRunActor } from '../api/use-quick-run';

const statusTone = { running: 'indigo', paused: 'amber', complete: 'green', stopped: 'neutral' } as const;

/** Execute All, where QuickRun stands, and the toasts it gives along the way. */
export function QuickRunControls({
  quickRun,
  executeAll,
  execution,
  steps,
  executionLoading,
}: {
  quickRun: QuickRunActor;
  executeAll: UseMutationResult<Execution, Error, void>;
  execution: Execution | null;
  steps: Step[];
  /** The latest execution is still being looked up: starting now could start a second one. */
  executionLoading: boolean;
}) {
  const status: QuickRunStatus = useSelector(quickRun, quickRunStatusOf);
  const toast = useToast();

  useEffect(() => {
    const orderOf = (stepId: string) => steps.find((step) => step.id === stepId)?.order ?? 0;
    const subscriptions = [
      quickRun.on('paused', ({ stepId }) =>
        toast({ title: t.pausedTitle, description: t.pausedText(orderOf(stepId)) }),
      ),
      quickRun.on('stepExecuted', ({ stepId }) =>
        toast({
          title: toasts.stepExecuted,
          description: toasts.stepExecutedText(orderOf(stepId)),
          variant: 'success',
        }),
      ),
      quickRun.on('executeFailed', ({ error }) =>
        toast({
          title: toasts.executionFailed,
          description: messageOf(error, toasts.executeStepFailed),
          variant: 'destructive',
        }),
      ),
    ];
    return () => {
      for (const subscription of subscriptions) subscription.unsubscribe();
    };
  }, [quickRun, steps, toast]);

  const start = () => executeAll.mutate();
  const active = status === 'running' || status === 'paused';

  return (
    <div className="flex flex-wrap items-center gap-2">
      {status === 'idle' ? null : (
        <Badge tone={statusTone[status]} data-testid="quick-run-status" data-state={status}>
          {status === 'running' ? <Loader2 className="h-3 w-3 animate-spin" /> : null}
          {t.status[status]}
        </Badge>
      )}
      <Button
        size="sm"
        variant="outline"
        onClick={start}
        // A stopped execution refuses runs until it is reset.
        disabled={executeAll.isPending || executionLoading}
        disabledReason={
          execution?.status === 'stopped' ? MESSAGES.stopped : active && whyDisabled.quickRunActive
        }
        data-testid="execute-all"
      >
        {executeAll.isPending ? (
          <Loader2 className="h-4 w-4 animate-spin" />
        ) : (
          <FastForward className="h-4 w-4" />
        )}
        {t.executeAll}
      </Button>
    </div>
  );
}
