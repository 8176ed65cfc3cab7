import { Loader2, Play, RotateCw } from 'lucide-react';
import { Button } from '@/components/ui/button';
import type { Execution } from '@/lib/execution-stream';
import type { Step } from '@/lib/steps-query';
import { runMode as t } from '@/lib/strings';
import type { CacheItem } from '../../../../../domain/execution/types';

export interface ExecuteButton {
  key: string;
  label: string;
  /** A re-run of a finished step: a new version of its results. */
  rerun: boolean;
  /** The loop iteration this button runs; none for other steps and re-runs. */
  loopIteration?: number;
}

/**
 * One 'Execute' while the step has no work in the cache, else one per pending item ('Execute
 * (lần N)' for loop iterations); a finished step offers a re-run.
 */
export function executeButtonsFor(step: Step, execution: Execution | null): ExecuteButton[] {
  const items: CacheItem[] = execution?.executionCache.filter((item) => item.stepId === step.id) ?? [];
  if (items.length === 0) return [{ key: 'execute', label: t.execute, rerun: false }];
  const pending = items.filter((item) => item.status === 'pending');
  if (pending.length === 0) return [{ key: 'rerun', label: t.rerun, rerun: true }];
  return pending.map((item) => ({
    key: item.id,
    label: step.outputMode === 'loop' ? t.executeIteration(item.loopIteration) : t.execute,
    rerun: false,
    ...(step.outputMode === 'loop' ? { loopIteration: item.loopIteration } : {}),
  }));
}

export function ExecuteButtons({
  step,
  execution,
  busy,
  disabled,
  needsInput,
  whyNot,
  onExecute,
}: {
  step: Step;
  execution: Execution | null;
  busy: boolean;
  disabled: boolean;
  needsInput: boolean;
  /** Why the step cannot run now (the execution is stopped, its input is missing), or null. */
  whyNot: string | null;
  onExecute: (rerun: boolean, loopIteration?: number) => void;
}) {
  const buttons = executeButtonsFor(step, execution);
  return (
    <div className="flex flex-wrap gap-2">
      {buttons.map((button, i) => (
        <Button
          key={button.key}
          size="sm"
          variant={button.rerun ? 'outline' : 'primary'}
          disabled={busy || disabled}
          disabledReason={whyNot}
          onClick={() => onExecute(button.rerun, button.loopIteration)}
          data-testid={i === 0 ? `execute-step-${step.order}` : `execute-step-${step.order}-${i + 1}`}
        >
          {busy ? (
            <Loader2 className="h-4 w-4 animate-spin" />
          ) : button.rerun ? (
            <RotateCw className="h-4 w-4" />
          ) : (
            <Play className="h-4 w-4" />
          )}
          {busy ? t.running : needsInput ? t.needsInput : button.label}
        </Button>
      ))}
    </div>
  );
}
