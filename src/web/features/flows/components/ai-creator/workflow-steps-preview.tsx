import { Badge } from '@/components/ui/badge';
import { aiCreator as t } from '@/features/flows/strings';
import { excerptOf } from '@/lib/excerpt';
import { referencedOrder } from '../../../../../domain/workflow-json';
import type { DialogWorkflow } from '../../../../../machines/ai-creator-dialog';

/** At most this many steps are previewed. */
export const PREVIEW_STEP_LIMIT = 10;
const EXCERPT_LENGTH = 160;

/** A workflow's name, description and first steps, each with its order, mode, prompt and input sources. */
export function WorkflowStepsPreview({ workflow, testId }: { workflow: DialogWorkflow; testId: string }) {
  const shown = workflow.steps.slice(0, PREVIEW_STEP_LIMIT);
  const hidden = workflow.steps.length - shown.length;
  return (
    <div className="rounded-lg border border-slate-200 bg-slate-50/60 p-4" data-testid={testId}>
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="font-semibold text-slate-900" data-testid="preview-name">
          {workflow.name}
        </h3>
        <Badge tone="indigo">{t.previewSteps(workflow.steps.length)}</Badge>
      </div>
      {workflow.description ? <p className="mt-1 text-sm text-slate-600">{workflow.description}</p> : null}
      <ol className="mt-3 flex flex-col gap-2">
        {shown.map((step, index) => (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: a read-only list that never reorders, whose orders and names may repeat (a generated answer is only checked for a name and steps)
            key={index}
            className="rounded-md border border-slate-200 bg-white p-3"
            data-testid="preview-step"
          >
            <div className="flex flex-wrap items-center gap-2">
              <span className="flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-indigo-600 text-xs font-semibold text-white">
                {step.order}
              </span>
              <span className="text-sm font-medium text-slate-900">{step.name}</span>
              <Badge
                tone={step.outputMode === 'multiple' ? 'amber' : 'neutral'}
                data-testid="preview-step-mode"
              >
                {t.outputMode(step.outputMode)}
              </Badge>
              {step.requiresUserInput ? <Badge tone="outline">{t.requiresInput}</Badge> : null}
              {(Array.isArray(step.inputSources) ? step.inputSources : []).map((source) => {
                const order = referencedOrder(String(source));
                return (
                  <Badge key={source} tone="outline" data-testid="preview-step-source">
                    {order === null ? String(source) : t.inputSource(order)}
                  </Badge>
                );
              })}
            </div>
            <p className="mt-1.5 text-xs text-slate-600">
              {excerptOf(String(step.systemPrompt ?? ''), EXCERPT_LENGTH)}
            </p>
          </li>
        ))}
      </ol>
      {hidden > 0 ? <p className="mt-2 text-xs text-slate-500">{t.moreSteps(hidden)}</p> : null}
    </div>
  );
}
