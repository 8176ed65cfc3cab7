import {
  AlertTriangle,
  ChevronDown,
  ChevronRight,
  CircleStop,
  FileText,
  Keyboard,
  Loader2,
} from 'lucide-react';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { StepConfigurationBadges } from '@/components/step-configuration-badges';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Textarea } from '@/components/ui/field';
import { StepResults } from '@/features/flow-workspace/workspace/components/step-results';
import { RequestReviewButton, StepReviewPanel } from '@/features/reviews';
import { cn } from '@/lib/cn';
import type { Execution } from '@/lib/execution-stream';
import type { Step } from '@/lib/steps-query';
import { history, runMode as t } from '@/lib/strings';
import { useMay } from '@/lib/workspace-roles';
import { runningRun } from '../../../../../domain/execution';
import { MESSAGES } from '../../../../../domain/execution/decide';
import { UnverifiedMark } from '../../history/components/unverified-mark';
import type { QuickRunActor } from '../api/use-quick-run';
import { ExecuteButtons } from './execute-buttons';
import { useOpenStepCardRequest } from './open-step-card';
import { PromptPanel } from './prompt-panel';
import { RerunFromStepButton } from './rerun-from-step-button';
import { ResumeButton, useQuickRunNextIs, useQuickRunPausedOn } from './resume-button';
import { inputSourceOrders } from './step-list-rows';
import { StepStatusIcon, stepDisplayStatus } from './step-status-icon';
import { useExecuteStep } from './use-execute-step';
import { useUnverifiedReviews } from './use-unverified-reviews';

interface StepCardProps {
  step: Step;
  steps: Step[];
  isFirst: boolean;
  execution: Execution | null;
  /** The latest execution is still being looked up: running now could start a second one. */
  executionLoading: boolean;
  streaming: Record<string, string>;
  /** What is typed in the Input box; QuickRun runs the step with it too. */
  input: string;
  onInputChange: (input: string) => void;
  quickRun: QuickRunActor;
  /** The step a link opened the page at (a review's): it stands out. */
  linked?: boolean;
}

function Toggle({
  open,
  onClick,
  icon,
  label,
  testId,
}: {
  open: boolean;
  onClick: () => void;
  icon: ReactNode;
  label: string;
  testId: string;
}) {
  return (
    <Button
      variant={open ? 'secondary' : 'ghost'}
      size="sm"
      onClick={onClick}
      aria-expanded={open}
      data-testid={testId}
    >
      {icon}
      {label}
      {open ? <ChevronDown className="h-3.5 w-3.5" /> : <ChevronRight className="h-3.5 w-3.5" />}
    </Button>
  );
}

export function StepCard({
  step,
  steps,
  isFirst,
  execution,
  executionLoading,
  streaming,
  input,
  onInputChange,
  quickRun,
  linked = false,
}: StepCardProps) {
  const [expanded, setExpanded] = useState(isFirst);
  const [promptOpen, setPromptOpen] = useState(false);
  // The first step and steps that need input open their input at once: that is where the user starts.
  const [inputOpen, setInputOpen] = useState(isFirst || step.requiresUserInput);
  const { execute, busy, needsInput, stopped, whyNot } = useExecuteStep({ step, execution, input, quickRun });
  const quickRunPausedHere = useQuickRunPausedOn(quickRun, step.id);
  const quickRunNextHere = useQuickRunNextIs(quickRun, step.id);
  const headerRef = useRef<HTMLButtonElement>(null);
  const mayRun = useMay('run');
  const unverifiedReviews = useUnverifiedReviews(execution);

  // Asked for from the step list: open, come into view, and take the focus so the keyboard lands here.
  useOpenStepCardRequest(
    step.id,
    useCallback(() => {
      setExpanded(true);
      headerRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
      headerRef.current?.focus({ preventScroll: true });
    }, []),
  );

  // The step QuickRun runs or waits on opens, with its Input box when it waits for input; a step it waits
  // on is scrolled to as well, since QuickRun stands still until the user types there.
  useEffect(() => {
    if (quickRunNextHere || quickRunPausedHere) setExpanded(true);
    if (quickRunPausedHere) {
      setInputOpen(true);
      // After the Input box has rendered, so the page is long enough to bring the card to the top.
      requestAnimationFrame(() => headerRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' }));
    }
  }, [quickRunNextHere, quickRunPausedHere]);

  const run = execution ? runningRun(execution, step.id) : null;
  const status = stepDisplayStatus(execution, step);
  const waitingId = `step-waiting-input-${step.id}`;

  // The execution waits on this step's input: the card opens at its Input box, where the user answers.
  useEffect(() => {
    if (status !== 'input') return;
    setExpanded(true);
    setInputOpen(true);
  }, [status]);
  const streamedText = run ? streaming[run.runId] : undefined;
  const stepRuns = execution?.runs.filter((r) => r.stepId === step.id) ?? [];
  const lastRun = stepRuns[stepRuns.length - 1];

  const sources = inputSourceOrders(step, steps);

  return (
    <Card
      data-testid={`step-card-${step.order}`}
      data-step-id={step.id}
      className={cn(
        status === 'running' && 'ring-1 ring-indigo-200',
        (status === 'input' || status === 'review') && 'ring-1 ring-amber-300',
        linked && 'ring-2 ring-amber-400',
      )}
      data-status={status}
      data-linked={linked || undefined}
    >
      <button
        type="button"
        ref={headerRef}
        className="flex w-full scroll-mt-20 items-center gap-3 p-4 text-left"
        onClick={() => setExpanded((open) => !open)}
        aria-expanded={expanded}
        data-testid={`step-header-${step.order}`}
      >
        <StepStatusIcon status={status} order={step.order} busy={busy} />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-semibold text-slate-900">{step.name}</span>
            <StepConfigurationBadges step={step} inputOrders={sources} />
          </div>
        </div>
        {expanded ? (
          <ChevronDown className="h-5 w-5 text-slate-500" />
        ) : (
          <ChevronRight className="h-5 w-5 text-slate-500" />
        )}
      </button>

      {expanded ? (
        <div className="flex flex-col gap-4 border-t border-slate-100 p-4">
          <div className="flex flex-wrap items-center gap-2">
            <Toggle
              open={promptOpen}
              onClick={() => setPromptOpen((open) => !open)}
              icon={<FileText className="h-4 w-4" />}
              label={t.prompt}
              testId={`prompt-toggle-${step.order}`}
            />
            {mayRun ? (
              <Toggle
                open={inputOpen}
                onClick={() => setInputOpen((open) => !open)}
                icon={<Keyboard className="h-4 w-4" />}
                label={t.input}
                testId={`input-toggle-${step.order}`}
              />
            ) : null}
            {mayRun ? (
              <div className="ml-auto flex flex-wrap gap-2">
                {execution && !isFirst ? (
                  <RerunFromStepButton
                    step={step}
                    execution={execution}
                    disabled={busy || executionLoading}
                    onExecute={() => execute(false)}
                  />
                ) : null}
                <ResumeButton quickRun={quickRun} step={step} disabled={busy} whyNot={whyNot} />
                <ExecuteButtons
                  step={step}
                  execution={execution}
                  busy={busy}
                  disabled={executionLoading}
                  needsInput={needsInput}
                  whyNot={whyNot}
                  onExecute={execute}
                />
              </div>
            ) : null}
          </div>
          {stopped ? (
            <p
              className="flex items-center gap-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
              role="status"
              data-testid={`step-stopped-${step.order}`}
            >
              <CircleStop className="h-4 w-4 shrink-0" />
              {MESSAGES.stopped}
            </p>
          ) : null}

          {status === 'input' ? (
            <p
              id={waitingId}
              className="flex items-center gap-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
              role="status"
              data-testid={`step-waiting-input-${step.order}`}
            >
              <Keyboard className="h-4 w-4 shrink-0" />
              {t.waitingInputText}
            </p>
          ) : null}

          {promptOpen ? <PromptPanel step={step} /> : null}
          {inputOpen && mayRun ? (
            <Textarea
              aria-describedby={status === 'input' ? waitingId : undefined}
              value={input}
              onChange={(e) => onInputChange(e.target.value)}
              placeholder={step.requiresUserInput ? t.inputRequiredPlaceholder : t.inputPlaceholder}
              data-testid={`step-input-${step.order}`}
            />
          ) : null}

          {busy ? (
            <div
              className="rounded-lg border border-indigo-100 bg-indigo-50/50 p-4"
              data-testid={`step-running-${step.order}`}
            >
              <div className="flex items-center gap-2 text-sm font-medium text-indigo-700">
                <Loader2 className="h-4 w-4 animate-spin" />
                {t.streaming}
              </div>
              {streamedText ? (
                <pre
                  className="mt-3 whitespace-pre-wrap font-sans text-sm text-slate-800"
                  data-testid="streaming-text"
                >
                  {streamedText}
                </pre>
              ) : null}
            </div>
          ) : null}

          {!busy && lastRun?.status === 'failed' ? (
            <div
              className="flex items-start gap-2 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-700"
              data-testid={`step-failed-${step.order}`}
            >
              <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" />
              {t.runFailed(lastRun.message ?? '')}
            </div>
          ) : null}

          {execution ? (
            <StepReviewPanel
              stepId={step.id}
              execution={execution}
              unverifiedMark={(reviewId) =>
                unverifiedReviews.has(reviewId) ? (
                  <UnverifiedMark why={history.reviews.unverifiedReview} testId="step-review-unverified" />
                ) : null
              }
            />
          ) : null}
          {execution && mayRun ? (
            <RequestReviewButton step={step} execution={execution} disabled={busy || executionLoading} />
          ) : null}
          {execution ? <StepResults step={step} execution={execution} /> : null}
        </div>
      ) : null}
    </Card>
  );
}
