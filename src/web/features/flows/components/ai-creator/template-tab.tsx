import { Loader2, Plus } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { Field, Select } from '@/components/ui/field';
import { aiCreator as t } from '@/features/flows/strings';
import { BUILTIN_TEMPLATES, builtinTemplate } from '../../../../../domain/builtin-templates';
import type { AiCreatorPhase, DialogWorkflow } from '../../../../../machines/ai-creator-dialog';
import { WorkflowStepsPreview } from './workflow-steps-preview';

/** 'Template': one of the built-in templates, its preview, and create. */
export function TemplateTab({
  templateId,
  phase,
  onTemplateChange,
  onCreate,
}: {
  templateId: string | null;
  phase: AiCreatorPhase;
  onTemplateChange: (templateId: string | null) => void;
  onCreate: () => void;
}) {
  const selectId = useId();
  const template = templateId ? builtinTemplate(templateId) : undefined;
  const creating = phase === 'creating';
  return (
    <div className="flex flex-col gap-4">
      <Field id={selectId} label={t.templateLabel}>
        <Select
          id={selectId}
          value={templateId ?? ''}
          onChange={(event) => onTemplateChange(event.target.value || null)}
          data-testid="ai-creator-template-select"
        >
          <option value="">{t.templatePlaceholder}</option>
          {BUILTIN_TEMPLATES.map(({ id, workflow }) => (
            <option key={id} value={id}>
              {workflow.name}
            </option>
          ))}
        </Select>
      </Field>
      {template ? (
        <WorkflowStepsPreview
          workflow={template.workflow as DialogWorkflow}
          testId="ai-creator-template-preview"
        />
      ) : null}
      <Button
        onClick={onCreate}
        disabled={creating || phase === 'generating'}
        className="self-end"
        data-testid="ai-creator-create-template"
      >
        {creating ? <Loader2 className="h-4 w-4 animate-spin" /> : <Plus className="h-4 w-4" />}
        {creating ? t.creating : t.createFromTemplate}
      </Button>
    </div>
  );
}
