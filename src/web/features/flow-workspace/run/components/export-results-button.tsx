import { Download } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useToast } from '@/components/ui/toast';
import type { Execution } from '@/lib/execution-stream';
import { formatDateTime } from '@/lib/format-date';
import type { Step } from '@/lib/steps-query';
import { runMode as t, toasts, whyDisabled } from '@/lib/strings';
import { resultsOfStep } from '../../../../../domain/execution';

/** The exported results file: per step its order, name and prompt, then each result with label and time. */
export function resultsText(steps: Step[], execution: Execution | null): string {
  return steps
    .map((step) => {
      const results = execution ? resultsOfStep(execution, step.id) : [];
      const lines = [
        t.exportFile.step(step.order, step.name),
        `${t.exportFile.systemPrompt}\n${step.systemPrompt}`,
        '',
      ];
      for (const result of results) {
        lines.push(t.exportFile.result(result.label ?? '', formatDateTime(result.createdAt)));
        lines.push(result.result, '');
      }
      return lines.join('\n');
    })
    .join(`\n${'='.repeat(60)}\n\n`);
}

export function ExportResultsButton({
  flowName,
  steps,
  execution,
}: {
  flowName: string;
  steps: Step[];
  execution: Execution | null;
}) {
  const toast = useToast();
  const download = () => {
    try {
      const blob = new Blob([resultsText(steps, execution)], { type: 'text/plain;charset=utf-8' });
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = `workflow-results-${flowName}-${Date.now()}.txt`;
      link.click();
      URL.revokeObjectURL(url);
    } catch {
      toast({ title: toasts.error, description: toasts.exportResultsFailed, variant: 'destructive' });
    }
  };
  return (
    <Button
      variant="outline"
      size="sm"
      onClick={download}
      disabledReason={steps.length === 0 && whyDisabled.noSteps}
      data-testid="export-results"
    >
      <Download className="h-4 w-4" />
      {t.exportResults}
    </Button>
  );
}
