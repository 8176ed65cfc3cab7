import { ListRestart } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { useConfirm } from '@/components/ui/confirm-dialog';
import { useToast } from '@/components/ui/toast';
import { rerunFromStep as t } from '@/features/flow-workspace/strings';
import type { Execution } from '@/lib/execution-stream';
import type { Step } from '@/lib/steps-query';
import { useRerunFromStep } from '../api/rerun-from-step';

/**
 * 'Chạy lại từ đây': once the user confirms, a new execution starts with the approved results of
 * the earlier steps reused, and this step runs in it as its Execute button would run it.
 */
export function RerunFromStepButton({
  step,
  execution,
  disabled,
  onExecute,
}: {
  step: Step;
  execution: Execution;
  disabled: boolean;
  /** Runs this step in the execution the card shows. */
  onExecute: () => void;
}) {
  const rerun = useRerunFromStep(step.flowId);
  const toast = useToast();
  const confirm = useConfirm();
  // The step runs once the card shows the new execution: running it earlier would run it in the old one.
  const [runIn, setRunIn] = useState<string | null>(null);

  useEffect(() => {
    if (runIn === null || execution.id !== runIn) return;
    setRunIn(null);
    onExecute();
  }, [runIn, execution.id, onExecute]);

  const start = async () => {
    if (!(await confirm(t.confirm(step.order), { confirmLabel: t.action, destructive: false }))) return;
    rerun.mutate(
      { executionId: execution.id, stepId: step.id },
      {
        onSuccess: (started) => {
          toast({ title: t.started, description: t.startedText(step.order), variant: 'success' });
          setRunIn(started.id);
        },
      },
    );
  };

  return (
    <Button
      size="sm"
      variant="outline"
      title={t.actionTitle(step.order)}
      disabled={disabled || rerun.isPending || runIn !== null}
      onClick={start}
      data-testid={`rerun-from-step-${step.order}`}
    >
      <ListRestart className="h-4 w-4" />
      {t.action}
    </Button>
  );
}
