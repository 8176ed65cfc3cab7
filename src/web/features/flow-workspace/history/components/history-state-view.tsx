import { FileText } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { MarkdownBlock } from '@/components/ui/markdown';
import { flowVersions } from '@/features/flow-workspace/strings';
import { FlowVersionLink } from '@/features/flow-workspace/versions/components/flow-version-link';
import { ExecutionStatusBadge } from '@/features/flow-workspace/workspace/components/execution-status-badge';
import { ResultStatusBadge } from '@/features/flow-workspace/workspace/components/result-status-badge';
import { versionsOf } from '@/features/flow-workspace/workspace/components/step-results';
import { formatDateTime } from '@/lib/format-date';
import { runMode, history as t } from '@/lib/strings';
import { progress, resultsOfStep, runningRun } from '../../../../../domain/execution';
import type { ExecutionState, StepResult } from '../../../../../domain/execution/types';
import type { StepSnapshot } from '../../../../../domain/flow';
import type { AuditTrail, RunStarted } from './history-points';

const when = (at: string) => formatDateTime(at);

/** The prompt a run was sent after [[label]] replacement, its input and the model that answered. */
function PromptSent({ run }: { run: RunStarted }) {
  return (
    <details className="mt-3 rounded-md border border-slate-200 bg-slate-50" data-testid="history-prompt">
      <summary className="flex cursor-pointer items-center gap-2 px-3 py-2 text-xs font-medium text-slate-700">
        <FileText className="h-3.5 w-3.5" />
        {t.promptSent}
        <span className="font-normal text-slate-500">
          {t.model(run.model, t.words.keySources[run.keySource] ?? run.keySource)}
        </span>
      </summary>
      <div className="flex flex-col gap-2 px-3 pb-3">
        <pre
          className="max-h-60 overflow-y-auto whitespace-pre-wrap break-words rounded bg-white p-2 text-xs text-slate-800"
          data-testid="history-final-prompt"
        >
          {run.finalPrompt}
        </pre>
        <p className="text-xs text-slate-600">
          <span className="font-medium">{t.inputSent}: </span>
          {run.userInput.trim() || t.words.defaultInput}
        </p>
      </div>
    </details>
  );
}

/** Opens another execution's history: where a reused result was produced, approved and prompted. */
type OpenExecution = (executionId: string) => void;

function HistoryResult({
  result,
  step,
  trail,
  onOpenExecution,
}: {
  result: StepResult;
  step: StepSnapshot | undefined;
  trail: AuditTrail;
  onOpenExecution: OpenExecution;
}) {
  const isChoice = step?.outputMode === 'multiple_choice';
  const approval = trail.approvals.get(result.id);
  const edit = trail.edits.get(result.id);
  const run = trail.runs.get(result.runId);
  return (
    <div
      className="rounded-lg border border-slate-200 bg-white p-3"
      data-testid="history-result"
      data-result-id={result.id}
    >
      <div className="mb-2 flex flex-wrap items-center gap-2">
        {result.label ? (
          <span className="text-sm font-medium text-slate-800" data-testid="history-result-label">
            {result.label}
          </span>
        ) : null}
        <ResultStatusBadge result={result} isChoice={isChoice} testId="history-result-status" />
        <span className="text-xs text-slate-500">{t.producedAt(when(result.createdAt))}</span>
      </div>
      {result.approved && approval ? (
        <p className="mb-1 text-xs text-emerald-700" data-testid="history-approved-by">
          {t.approvedBy(approval.actor ?? t.unknownActor, when(approval.at))}
        </p>
      ) : null}
      {result.origin ? (
        <p className="mb-1 text-xs text-indigo-700" data-testid="history-reused-from">
          {t.reusedFrom(when(result.origin.executionStartedAt))}{' '}
          <button
            type="button"
            className="cursor-pointer font-medium underline"
            onClick={() => onOpenExecution(result.origin!.executionId)}
            data-testid="history-open-origin"
          >
            {t.openOrigin}
          </button>
        </p>
      ) : null}
      {edit ? (
        <p className="mb-1 text-xs text-amber-700" data-testid="history-edited-by">
          {t.editedBy(edit.actor ?? t.unknownActor, when(edit.at))}
        </p>
      ) : null}
      <div className="text-sm" data-testid="history-result-text">
        <MarkdownBlock text={result.result} />
      </div>
      {run ? <PromptSent run={run} /> : null}
    </div>
  );
}

function HistoryStep({
  step,
  state,
  trail,
  onOpenExecution,
}: {
  step: StepSnapshot;
  state: ExecutionState;
  trail: AuditTrail;
  onOpenExecution: OpenExecution;
}) {
  const items = state.executionCache.filter((item) => item.stepId === step.id);
  const completed = items.length > 0 && items.every((item) => item.status === 'completed');
  const versions = versionsOf(resultsOfStep(state, step.id));
  const running = runningRun(state, step.id);
  const lastRun = state.runs.filter((run) => run.stepId === step.id).at(-1);
  return (
    <Card
      className="p-4"
      data-testid={`history-step-${step.order}`}
      data-status={completed ? 'completed' : 'pending'}
    >
      <div className="mb-3 flex flex-wrap items-center gap-2">
        <h4 className="font-semibold text-slate-900">{t.stepTitle(step.order, step.name)}</h4>
        <Badge tone="outline">{runMode.outputMode[step.outputMode]}</Badge>
        <Badge tone={completed ? 'green' : 'neutral'} data-testid="history-step-status">
          {completed ? t.stepCompleted : t.stepPending}
        </Badge>
        {running ? <Badge tone="indigo">{runMode.running}</Badge> : null}
        {lastRun?.status === 'failed' ? (
          <Badge tone="red" data-testid="history-step-failed">
            {runMode.runFailed(lastRun.message ?? '')}
          </Badge>
        ) : null}
      </div>
      {versions.length === 0 ? <p className="text-sm text-slate-500">{t.noResults}</p> : null}
      <div className="flex flex-col gap-3">
        {versions.map((version, i) => (
          <div key={version[0]?.runId ?? i} className="flex flex-col gap-2" data-testid="history-version">
            {versions.length > 1 ? (
              <span className="text-xs font-semibold uppercase tracking-wide text-slate-500">
                {t.version(i + 1)}
              </span>
            ) : null}
            {version.map((result) => (
              <HistoryResult
                key={result.id}
                result={result}
                step={step}
                trail={trail}
                onOpenExecution={onOpenExecution}
              />
            ))}
          </div>
        ))}
      </div>
    </Card>
  );
}

/** The run screen as it stood at one point of the history, read-only: nothing here changes anything. */
export function HistoryStateView({
  state,
  position,
  syncedVersion,
  trail,
  onOpenExecution,
}: {
  state: ExecutionState;
  position: number;
  /** The flow version the execution's steps are of at this point, when a sync has moved them on. */
  syncedVersion: number | null;
  trail: AuditTrail;
  onOpenExecution: OpenExecution;
}) {
  return (
    <div className="flex flex-col gap-3" data-testid="history-state" data-position={position}>
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="font-semibold text-slate-900">{t.stateAt(position)}</h3>
        <ExecutionStatusBadge execution={state} testId="history-state-status" />
        {state.flowVersion !== null ? (
          <FlowVersionLink flowId={state.flowId} version={state.flowVersion} />
        ) : null}
        {syncedVersion !== null && syncedVersion !== state.flowVersion ? (
          <span className="flex items-center gap-1 text-xs text-slate-500" data-testid="history-state-synced">
            {flowVersions.syncedTo}
            <FlowVersionLink flowId={state.flowId} version={syncedVersion} />
          </span>
        ) : null}
        <span className="text-sm text-slate-500">
          {t.currentStep(state.currentStep, state.steps.length)} · {Math.round(progress(state))}%
        </span>
      </div>
      {state.steps.map((step) => (
        <HistoryStep
          key={step.id}
          step={step}
          state={state}
          trail={trail}
          onOpenExecution={onOpenExecution}
        />
      ))}
    </div>
  );
}
