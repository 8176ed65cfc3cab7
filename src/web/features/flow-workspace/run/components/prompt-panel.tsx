import { Pencil } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Textarea } from '@/components/ui/field';
import { useUpdateStep } from '@/features/flow-workspace/api/update-step';
import type { Step } from '@/lib/steps-query';
import { runMode as t, toasts } from '@/lib/strings';
import { useMay } from '@/lib/workspace-roles';

/** The step's system prompt, editable in place so a prompt can be tuned between runs. */
export function PromptPanel({ step }: { step: Step }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(step.systemPrompt);
  const mayChange = useMay('change');
  const updateStep = useUpdateStep(step.flowId, { description: toasts.promptUpdateFailed });

  const save = () => {
    updateStep.mutate(
      { stepId: step.id, changes: { systemPrompt: draft } },
      { onSuccess: () => setEditing(false) },
    );
  };

  if (editing && mayChange) {
    return (
      <div className="flex flex-col gap-2">
        <Textarea
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          className="min-h-40 font-mono text-xs"
          data-testid={`prompt-textarea-${step.order}`}
        />
        <div className="flex justify-end gap-2">
          <Button
            variant="outline"
            size="sm"
            onClick={() => setEditing(false)}
            disabled={updateStep.isPending}
          >
            {t.cancelEdit}
          </Button>
          <Button
            size="sm"
            onClick={save}
            disabled={updateStep.isPending}
            data-testid={`prompt-save-${step.order}`}
          >
            {t.savePrompt}
          </Button>
        </div>
      </div>
    );
  }

  return (
    <div className="relative rounded-lg border border-slate-200 bg-slate-50 p-3">
      <pre
        className="whitespace-pre-wrap pr-10 font-mono text-xs text-slate-700"
        data-testid={`prompt-text-${step.order}`}
      >
        {step.systemPrompt || t.promptEmpty}
      </pre>
      {mayChange ? (
        <Button
          variant="ghost"
          size="icon"
          className="absolute right-2 top-2"
          aria-label={t.editPrompt}
          title={t.editPrompt}
          onClick={() => {
            setDraft(step.systemPrompt);
            setEditing(true);
          }}
          data-testid={`prompt-edit-${step.order}`}
        >
          <Pencil className="h-4 w-4" />
        </Button>
      ) : null}
    </div>
  );
}
