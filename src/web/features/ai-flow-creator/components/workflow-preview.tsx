import { CheckCircle2, List, Loader2, PencilLine, Plus, Save, Workflow } from 'lucide-react';
import { Link } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import type { WorkflowProposal } from '@/features/ai-flow-creator/api/propose-workflow';
import { excerptOf } from '@/lib/excerpt';
import { referencedOrder } from '../../../../domain/workflow-json';
import type { AiFlowCreatorPhase } from '../../../../machines/ai-flow-creator';
import { aiFlowCreator as t } from '../strings';

const EXCERPT_LENGTH = 180;

function StepRow({ step }: { step: WorkflowProposal['steps'][number] }) {
  const sources = step.inputSources
    .map(referencedOrder)
    .filter((order): order is number => order !== null)
    .map(t.step);
  return (
    <li
      className="rounded-lg border border-slate-200 bg-slate-50/60 p-3"
      data-testid={`proposal-step-${step.order}`}
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-indigo-600 text-xs font-semibold text-white">
          {step.order}
        </span>
        <span className="font-medium text-slate-900" data-testid="proposal-step-name">
          {step.name}
        </span>
        <Badge
          tone={step.outputMode === 'multiple' ? 'amber' : 'neutral'}
          data-testid="proposal-step-mode"
          data-mode={step.outputMode}
        >
          {t.outputMode[step.outputMode]}
        </Badge>
        {step.requiresUserInput ? <Badge tone="outline">{t.requiresInput}</Badge> : null}
        {sources.length > 0 ? <Badge tone="outline">{t.inputFrom(sources.join(', '))}</Badge> : null}
      </div>
      <p className="mt-2 text-sm text-slate-600" data-testid="proposal-step-prompt">
        {excerptOf(step.systemPrompt, EXCERPT_LENGTH)}
      </p>
    </li>
  );
}

/**
 * The right pane: the improved description until there is a proposal, then the proposed workflow with
 * what can be done with it in this phase (confirm and save, continue editing; once confirmed, the flows
 * list or a new workflow).
 */
export function WorkflowPreview({
  phase,
  improvement,
  proposal,
  pending,
  saving,
  onConfirm,
  onContinueEditing,
  onCreateNew,
}: {
  phase: AiFlowCreatorPhase;
  improvement: string | null;
  proposal: WorkflowProposal | null;
  pending: boolean;
  saving: boolean;
  onConfirm: () => void;
  onContinueEditing: () => void;
  onCreateNew: () => void;
}) {
  const confirmed = phase === 'confirmed';
  const mayContinueEditing = phase === 'improvement' || phase === 'proposal';
  return (
    <Card className="flex flex-col" data-testid="workflow-preview">
      <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-5 py-3">
        <h2 className="flex items-center gap-2 font-semibold text-slate-900">
          <Workflow className="h-4 w-4 text-indigo-600" />
          {t.previewTitle}
        </h2>
        {confirmed ? (
          <Badge tone="green" data-testid="proposal-confirmed">
            <CheckCircle2 className="h-3.5 w-3.5" />
            {t.confirmedBadge}
          </Badge>
        ) : null}
      </div>

      <div className="flex flex-col gap-4 px-5 py-4">
        {proposal ? (
          <>
            <div>
              <h3 className="text-lg font-semibold text-slate-900" data-testid="proposal-name">
                {proposal.name}
              </h3>
              <p
                className="mt-1 whitespace-pre-wrap text-sm text-slate-600"
                data-testid="proposal-description"
              >
                {proposal.description}
              </p>
            </div>
            <div>
              <h4 className="mb-2 text-sm font-medium text-slate-700">{t.steps(proposal.steps.length)}</h4>
              <ol className="flex flex-col gap-2" data-testid="proposal-steps">
                {proposal.steps.map((step) => (
                  <StepRow key={step.order} step={step} />
                ))}
              </ol>
            </div>
          </>
        ) : improvement ? (
          <div>
            <h3 className="text-sm font-medium text-slate-700">{t.improvedDescription}</h3>
            <p
              className="mt-2 whitespace-pre-wrap rounded-lg bg-slate-50 p-3 text-sm text-slate-700"
              data-testid="preview-improvement"
            >
              {improvement}
            </p>
          </div>
        ) : (
          <p className="py-8 text-center text-sm text-slate-500" data-testid="preview-empty">
            {t.emptyPreview}
          </p>
        )}

        <div className="flex flex-wrap gap-2">
          {phase === 'proposal' ? (
            <Button onClick={onConfirm} disabled={pending} data-testid="confirm-save">
              {saving ? <Loader2 className="h-4 w-4 animate-spin" /> : <Save className="h-4 w-4" />}
              {saving ? t.saving : t.confirm}
            </Button>
          ) : null}
          {mayContinueEditing ? (
            <Button
              variant="outline"
              onClick={onContinueEditing}
              disabled={pending}
              data-testid="continue-editing"
            >
              <PencilLine className="h-4 w-4" />
              {t.continueEditing}
            </Button>
          ) : null}
          {confirmed ? (
            <>
              <Link href="/flows" className={buttonClasses('outline')} data-testid="view-flows">
                <List className="h-4 w-4" />
                {t.viewFlows}
              </Link>
              <Button onClick={onCreateNew} data-testid="create-new">
                <Plus className="h-4 w-4" />
                {t.createNew}
              </Button>
            </>
          ) : null}
        </div>
      </div>
    </Card>
  );
}
