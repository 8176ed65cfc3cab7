import { Lightbulb, Loader2, Plus, Sparkles } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { Field, Textarea } from '@/components/ui/field';
import { aiCreator as t } from '@/features/flows/strings';
import { WORKFLOW_DESCRIPTION_MAX_LENGTH } from '../../../../../domain/workflow-json';
import type { AiCreatorPhase, DialogWorkflow } from '../../../../../machines/ai-creator-dialog';
import { WorkflowStepsPreview } from './workflow-steps-preview';

/** 'Tạo AI': a description, a tip once there is text, generate, then the preview and create. */
export function GenerateTab({
  description,
  workflow,
  phase,
  onDescriptionChange,
  onGenerate,
  onCreate,
}: {
  description: string;
  workflow: DialogWorkflow | null;
  phase: AiCreatorPhase;
  onDescriptionChange: (description: string) => void;
  onGenerate: () => void;
  onCreate: () => void;
}) {
  const descriptionId = useId();
  const generating = phase === 'generating';
  const creating = phase === 'creating';
  return (
    <div className="flex flex-col gap-4">
      <Field id={descriptionId} label={t.describeLabel}>
        <Textarea
          id={descriptionId}
          value={description}
          onChange={(event) => onDescriptionChange(event.target.value)}
          placeholder={t.describePlaceholder}
          maxLength={WORKFLOW_DESCRIPTION_MAX_LENGTH}
          className="min-h-28"
          data-testid="ai-creator-description"
        />
      </Field>
      {description.trim() !== '' ? (
        <p
          className="flex items-start gap-2 rounded-lg bg-amber-50 p-3 text-xs text-amber-900"
          data-testid="ai-creator-tip"
        >
          <Lightbulb className="mt-0.5 h-4 w-4 shrink-0" />
          {t.tip}
        </p>
      ) : null}
      <Button
        onClick={onGenerate}
        disabled={generating || creating}
        className="self-start"
        data-testid="ai-creator-generate"
      >
        {generating ? <Loader2 className="h-4 w-4 animate-spin" /> : <Sparkles className="h-4 w-4" />}
        {generating ? t.generating : t.generate}
      </Button>
      {workflow && phase !== 'idle' ? (
        <>
          <WorkflowStepsPreview workflow={workflow} testId="ai-creator-preview" />
          <Button
            onClick={onCreate}
            disabled={phase !== 'preview'}
            className="self-end"
            data-testid="ai-creator-create"
          >
            {creating ? <Loader2 className="h-4 w-4 animate-spin" /> : <Plus className="h-4 w-4" />}
            {creating ? t.creating : t.createThis}
          </Button>
        </>
      ) : null}
    </div>
  );
}
