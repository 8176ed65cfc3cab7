import { Pencil, Trash2 } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { useConfirm } from '@/components/ui/confirm-dialog';
import { Input, Textarea } from '@/components/ui/field';
import { MarkdownBlock } from '@/components/ui/markdown';
import { useToast } from '@/components/ui/toast';
import { useDeleteResult } from '@/features/flow-workspace/api/delete-result';
import { useUpdateResult } from '@/features/flow-workspace/api/update-result';
import { formatDateTime } from '@/lib/format-date';
import { runMode as t, toasts } from '@/lib/strings';
import { useMay } from '@/lib/workspace-roles';
import { isBlankResult, MESSAGES } from '../../../../../domain/execution/decide';
import type { StepResult } from '../../../../../domain/execution/types';
import type { OutputMode } from '../../../../../domain/flow';
import { ResultStatusBadge } from './result-status-badge';
import { ReusedResultBadge } from './reused-result-badge';

/** Label and text of a result being edited; a blank label is saved as step_{order} by the server. */
export function ResultEditor({
  result,
  saving,
  onSave,
  onCancel,
}: {
  result: StepResult;
  saving: boolean;
  onSave: (changes: { result: string; label: string }) => void;
  onCancel: () => void;
}) {
  const [label, setLabel] = useState(result.label ?? '');
  const [text, setText] = useState(result.result);
  const blank = isBlankResult(text);
  return (
    <form
      className="flex flex-col gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (!blank) onSave({ result: text, label });
      }}
      data-testid={`result-editor-${result.id}`}
    >
      <label htmlFor={`result-label-${result.id}`} className="text-xs font-medium text-slate-600">
        {t.resultLabel}
      </label>
      <Input
        id={`result-label-${result.id}`}
        value={label}
        onChange={(e) => setLabel(e.target.value)}
        placeholder={t.resultLabelPlaceholder(result.stepOrder)}
        className="-mt-1"
        data-testid="result-label-input"
      />
      <label htmlFor={`result-text-${result.id}`} className="text-xs font-medium text-slate-600">
        {t.resultText}
      </label>
      <Textarea
        id={`result-text-${result.id}`}
        value={text}
        onChange={(e) => setText(e.target.value)}
        className="-mt-1 min-h-40"
        aria-invalid={blank}
        aria-describedby={blank ? `result-text-error-${result.id}` : undefined}
        data-testid="result-text-input"
      />
      {blank ? (
        <p id={`result-text-error-${result.id}`} className="text-xs text-red-700" role="alert">
          {MESSAGES.emptyResult}
        </p>
      ) : null}
      <div className="flex justify-end gap-2">
        <Button variant="ghost" size="sm" onClick={onCancel}>
          {t.cancelEdit}
        </Button>
        <Button type="submit" size="sm" disabled={saving || blank} data-testid="result-save">
          {t.saveResult}
        </Button>
      </div>
    </form>
  );
}

/**
 * One result: its label, whether it is approved (the checkbox carries it on), and the model's text. A result
 * only a review approves (approvalBelongsToReview) has no checkbox: `reviewStatus` says where its review stands.
 */
export function ResultCard({
  result,
  outputMode,
  reviewStatus = null,
}: {
  result: StepResult;
  outputMode: OutputMode;
  reviewStatus?: ReactNode;
}) {
  const updateResult = useUpdateResult(result.executionId);
  const deleteResult = useDeleteResult(result.executionId);
  const [editing, setEditing] = useState(false);
  const toast = useToast();
  const confirm = useConfirm();
  const mayReview = useMay('review');
  // A choice step's pick is the path taken; it is approved by the run itself and shown read-only.
  const isChoice = outputMode === 'multiple_choice';

  const setApproved = (approved: boolean) =>
    updateResult.mutate({ resultId: result.id, changes: { approved } });
  const save = (changes: { result: string; label: string }) =>
    updateResult.mutate({ resultId: result.id, changes }, { onSuccess: () => setEditing(false) });
  const remove = async () => {
    if (!(await confirm(t.confirmDeleteResult))) return;
    deleteResult.mutate(result.id, {
      onSuccess: () =>
        toast({ title: toasts.resultDeleted, description: toasts.resultDeletedText, variant: 'success' }),
    });
  };

  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4" data-testid={`result-${result.id}`}>
      <div className="mb-3 flex flex-wrap items-center gap-2">
        {result.label ? (
          <span className="text-sm font-medium text-slate-800" data-testid="result-label">
            {result.label}
          </span>
        ) : null}
        <ResultStatusBadge result={result} isChoice={isChoice} testId="result-status" />
        <span className="text-xs text-slate-500">{formatDateTime(result.createdAt)}</span>
        <ReusedResultBadge result={result} />
        <div className="ml-auto flex items-center gap-1 text-sm text-slate-700">
          {reviewStatus}
          {isChoice || !mayReview || reviewStatus ? null : (
            <span className="mr-2 flex items-center gap-2">
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
            </span>
          )}
          {mayReview ? (
            <>
              <Button
                variant="ghost"
                size="icon"
                aria-label={t.editResult}
                title={t.editResult}
                onClick={() => setEditing((open) => !open)}
                data-testid={`edit-result-${result.id}`}
              >
                <Pencil className="h-4 w-4" />
              </Button>
              <Button
                variant="ghost"
                size="icon"
                aria-label={t.deleteResult}
                title={t.deleteResult}
                disabled={deleteResult.isPending}
                onClick={remove}
                data-testid={`delete-result-${result.id}`}
              >
                <Trash2 className="h-4 w-4 text-red-600" />
              </Button>
            </>
          ) : null}
        </div>
      </div>
      {editing && mayReview ? (
        <ResultEditor
          result={result}
          saving={updateResult.isPending}
          onSave={save}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <MarkdownBlock text={result.result} />
      )}
    </div>
  );
}
