import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/cn';
import type { Step } from '@/lib/steps-query';
import { runMode } from '@/lib/strings';

/** The flow's steps in order; the chosen one is highlighted. */
export function StepTree({
  steps,
  selectedId,
  onSelect,
}: {
  steps: Step[];
  selectedId: string | null;
  onSelect: (stepId: string) => void;
}) {
  return (
    <ul className="flex flex-col gap-1" data-testid="step-tree">
      {steps.map((step) => {
        const selected = step.id === selectedId;
        return (
          <li key={step.id}>
            <button
              type="button"
              onClick={() => onSelect(step.id)}
              aria-current={selected ? 'true' : undefined}
              className={cn(
                'flex w-full items-center gap-2 rounded-md px-2 py-2 text-left text-sm cursor-pointer',
                selected ? 'bg-indigo-50 ring-1 ring-inset ring-indigo-200' : 'hover:bg-slate-50',
              )}
              data-testid={`step-tree-item-${step.order}`}
              data-selected={selected}
            >
              <span
                className={cn(
                  'flex h-6 w-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold',
                  selected ? 'bg-indigo-600 text-white' : 'bg-slate-100 text-slate-600',
                )}
              >
                {step.order}
              </span>
              <span
                className={cn(
                  'min-w-0 flex-1 truncate',
                  selected ? 'font-medium text-indigo-700' : 'text-slate-700',
                )}
                data-testid="step-tree-name"
              >
                {step.name}
              </span>
              <Badge tone="outline" data-testid="step-tree-mode">
                {runMode.outputMode[step.outputMode]}
              </Badge>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
