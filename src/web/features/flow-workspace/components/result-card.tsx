import type { StepResult } from '../../../../domain/execution/types';
import type { OutputMode } from '../../../../domain/flow';
import { Badge } from '../../../components/ui/badge';
import { Checkbox } from '../../../components/ui/checkbox';
import { MarkdownBlock } from '../../../components/ui/markdown';
import { useToast } from '../../../components/ui/toast';
import { dates, runMode as t, toasts } from '../../../lib/strings';
import { useUpdateResult } from '../api/update-result';

/** One result: its label, whether it is approved (the checkbox carries it on), and the model's text. */
export function ResultCard({ result, outputMode }: { result: StepResult; outputMode: OutputMode }) {
  const updateResult = useUpdateResult(result.executionId);
  const toast = useToast();
  // A choice step's pick is the path taken; it is approved by the run itself and shown read-only.
  const isChoice = outputMode === 'multiple_choice';

  const setApproved = (approved: boolean) =>
    updateResult.mutate(
      { resultId: result.id, changes: { approved } },
      {
        onError: () =>
          toast({ title: toasts.error, description: toasts.resultUpdateFailed, variant: 'destructive' }),
      },
    );

  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4" data-testid={`result-${result.id}`}>
      <div className="mb-3 flex flex-wrap items-center gap-2">
        {result.label ? <span className="text-sm font-medium text-slate-800">{result.label}</span> : null}
        {isChoice ? (
          <Badge tone="indigo" data-testid="result-status">
            {t.selected}
          </Badge>
        ) : (
          <Badge tone={result.approved ? 'green' : 'amber'} data-testid="result-status">
            {result.approved ? t.approved : t.pending}
          </Badge>
        )}
        <span className="text-xs text-slate-400">
          {new Date(result.createdAt).toLocaleString(dates.locale)}
        </span>
        {isChoice ? null : (
          <div className="ml-auto flex items-center gap-2 text-sm text-slate-700">
            <Checkbox
              id={`approve-${result.id}`}
              checked={result.approved}
              disabled={updateResult.isPending}
              onCheckedChange={(checked) => setApproved(checked === true)}
              data-testid={`approve-${result.id}`}
            />
            <label htmlFor={`approve-${result.id}`} className="cursor-pointer">
              {t.approve}
            </label>
          </div>
        )}
      </div>
      <MarkdownBlock text={result.result} />
    </div>
  );
}
