import { FlaskConical, Loader2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Textarea } from '@/components/ui/field';
import { MarkdownBlock } from '@/components/ui/markdown';
import { useToast } from '@/components/ui/toast';
import { editMode as t } from '@/features/flow-workspace/strings';
import type { Execution } from '@/lib/execution-stream';
import type { Step } from '@/lib/steps-query';
import { toasts } from '@/lib/strings';
import { DEFAULT_USER_INPUT } from '../../../../../domain/execution';
import { useTestExecuteStep } from '../api/test-execute-step';

/** Runs the step once on the flow's latest execution with a typed input and shows what the model said. */
export function TestExecutionCard({ step, execution }: { step: Step; execution: Execution | null }) {
  const [input, setInput] = useState('');
  const testStep = useTestExecuteStep();
  // The latest test's answer; a new test clears it until it answers.
  const answer = testStep.data?.results ?? null;
  const toast = useToast();

  const run = () => {
    if (!execution) {
      toast({
        title: toasts.noActiveExecution,
        description: toasts.noActiveExecutionText,
        variant: 'destructive',
      });
      return;
    }
    if (step.requiresUserInput && input.trim() === '') {
      toast({ title: toasts.inputRequired, description: toasts.inputRequiredText, variant: 'destructive' });
      return;
    }
    testStep.mutate(
      { executionId: execution.id, stepId: step.id, userInput: input.trim() ? input : DEFAULT_USER_INPUT },
      {
        onSuccess: () =>
          toast({
            title: toasts.stepExecuted,
            description: toasts.stepExecutedText(step.order),
            variant: 'success',
          }),
      },
    );
  };

  return (
    <Card className="p-5" data-testid="test-execution">
      <h3 className="font-semibold text-slate-900">{t.testExecution}</h3>
      <Textarea
        value={input}
        onChange={(e) => setInput(e.target.value)}
        placeholder={t.testInputPlaceholder}
        aria-label={t.testExecution}
        className="mt-3"
        data-testid="test-input"
      />
      <div className="mt-3 flex justify-end">
        <Button onClick={run} disabled={testStep.isPending} data-testid="test-execute">
          {testStep.isPending ? (
            <Loader2 className="h-4 w-4 animate-spin" />
          ) : (
            <FlaskConical className="h-4 w-4" />
          )}
          {testStep.isPending ? t.testRunning : t.testExecute}
        </Button>
      </div>
      {answer ? (
        <div className="mt-4 flex flex-col gap-3" data-testid="test-answer">
          <h4 className="text-sm font-semibold text-slate-700">{t.testAnswer}</h4>
          {answer.map((result) => (
            <div key={result.id} className="rounded-lg border border-slate-200 p-3">
              {answer.length > 1 && result.label ? (
                <p className="mb-1 text-xs font-medium text-slate-500">{result.label}</p>
              ) : null}
              <MarkdownBlock text={result.result} />
            </div>
          ))}
        </div>
      ) : null}
    </Card>
  );
}
