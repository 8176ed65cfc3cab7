import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, Eraser, MessagesSquare, Send, Settings } from 'lucide-react';
import { type KeyboardEvent, useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Textarea } from '@/components/ui/field';
import { useToast } from '@/components/ui/toast';
import { useRunStep } from '@/features/flow-workspace/api/run-step';
import { useLiveExecution } from '@/features/flow-workspace/api/use-live-execution';
import { chatMode as t } from '@/features/flow-workspace/strings';
import { LogsDialog } from '@/features/flow-workspace/workspace/components/logs-dialog';
import { SuggestionsDialog } from '@/features/flow-workspace/workspace/components/suggestions-dialog';
import { useLatestExecution } from '@/lib/execution-query';
import type { Flow } from '@/lib/flow-query';
import type { Step } from '@/lib/steps-query';
import { whyDisabled } from '@/lib/strings';
import { runningRun } from '../../../../../domain/execution';
import { ChatMessageView, ProgressMessage } from './chat-message';
import { ChatSettingsDialog } from './chat-settings-dialog';
import {
  addResults,
  chatProgress,
  clearTranscript,
  endRun,
  nextChatStep,
  sendMessage,
} from './chat-transcript';
import { useChatTranscript } from './use-chat-transcript';
import { useStickToBottom } from './use-stick-to-bottom';

let lastMessageNumber = 0;
const newMessageId = () => `message-${++lastMessageNumber}`;

function ProgressBar({ completed, total, percent }: { completed: number; total: number; percent: number }) {
  return (
    <div className="flex items-center gap-3">
      <div
        className="h-1.5 flex-1 overflow-hidden rounded-full bg-slate-200"
        role="progressbar"
        aria-label={t.progressLabel}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={t.progress(completed, total)}
        data-testid="chat-progress"
        data-completed={completed}
        data-total={total}
      >
        <div className="h-full rounded-full bg-indigo-600 transition-all" style={{ width: `${percent}%` }} />
      </div>
      <span className="shrink-0 text-xs font-medium text-slate-500" data-testid="chat-progress-text">
        {t.progress(completed, total)}
      </span>
    </div>
  );
}

/**
 * Chat through a flow: each message runs the flow's next step with the text as its input, and the step's
 * answer comes back as a reply. The execution is the same one run mode shows.
 */
export function ChatMode({ flow, steps, onBack }: { flow: Flow; steps: Step[]; onBack: () => void }) {
  const queryClient = useQueryClient();
  const latest = useLatestExecution(flow.id, queryClient);
  const { execution, streaming } = useLiveExecution(latest.data?.id);
  const runStep = useRunStep(flow.id, execution, { title: t.executeFailed, messageOr: t.executeFailedText });
  const [transcript, updateTranscript] = useChatTranscript(flow.id);
  const [text, setText] = useState('');
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [logsOpen, setLogsOpen] = useState(false);
  const [suggestionsOpen, setSuggestionsOpen] = useState(false);
  const toast = useToast();
  const { scroller, content, follow } = useStickToBottom<HTMLDivElement, HTMLDivElement>();

  const activeRun = execution ? runningRun(execution) : null;
  const busy = runStep.isPending || activeRun !== null;
  const progress = chatProgress(execution, steps);
  const showsProgress = transcript.messages.some((message) => message.role === 'system');
  const nameOf = (stepId: string) => steps.find((step) => step.id === stepId)?.name;
  const streamOf = (stepId: string) => {
    const run = execution ? runningRun(execution, stepId) : null;
    return run ? streaming[run.runId] : undefined;
  };

  // Answers reach the cache by push, by poll and with the run's own answer; whichever comes first shows.
  useEffect(() => {
    if (execution) updateTranscript((current) => addResults(current, execution.results, execution.runs));
  }, [execution, updateTranscript]);

  // On opening, and whenever work stops, no step is at work any more: a note left from before goes too.
  useEffect(() => {
    if (!busy) updateTranscript(endRun);
  }, [busy, updateTranscript]);

  const send = () => {
    const message = text.trim();
    // The lookup of the latest execution counts as busy: sending now could start a second execution.
    if (!message || busy || latest.isLoading) return;
    const step = nextChatStep(execution, steps);
    if (!step) {
      // A flow with no step has not finished anything: it says what to do instead.
      const description = steps.length === 0 ? t.noStepsText : t.noNextStepText;
      toast({ title: t.noNextStep, description, variant: 'destructive' });
      return;
    }
    updateTranscript((current) =>
      sendMessage(current, {
        userMessageId: newMessageId(),
        progressMessageId: newMessageId(),
        text: message,
        step,
      }),
    );
    setText('');
    follow();
    // The text is the step's input, which also satisfies a step that requires one.
    runStep.mutate({ step, userInput: message }, { onSettled: () => updateTranscript(endRun) });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter while an input method is composing a word (Vietnamese Telex, for one) only ends the word.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    send();
  };

  const clear = () => updateTranscript((current) => clearTranscript(current, execution?.results ?? []));

  return (
    <div className="fixed inset-0 z-[35] flex flex-col bg-slate-50" data-testid="chat-mode">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-3xl flex-col gap-3 px-4 py-3">
          <div className="flex items-center gap-3">
            <Button variant="ghost" size="sm" onClick={onBack} data-testid="chat-back">
              <ArrowLeft className="h-4 w-4" />
              {t.backToRun}
            </Button>
            <div className="min-w-0 flex-1">
              <h1 className="truncate font-semibold text-slate-900" data-testid="chat-flow-name">
                {flow.name}
              </h1>
              <p className="truncate text-xs text-slate-500">{flow.description}</p>
            </div>
            <Button
              variant="outline"
              size="icon"
              onClick={() => setSettingsOpen(true)}
              aria-label={t.settings}
              title={t.settings}
              data-testid="chat-settings"
            >
              <Settings className="h-4 w-4" />
            </Button>
          </div>
          <ProgressBar {...progress} />
        </div>
      </header>

      <div className="flex-1 overflow-y-auto" ref={scroller}>
        <div
          ref={content}
          className="mx-auto flex max-w-3xl flex-col gap-4 px-4 py-6"
          data-testid="chat-messages"
        >
          {transcript.messages.length === 0 && !busy ? (
            <div className="flex flex-col items-center py-16 text-center" data-testid="chat-empty">
              <MessagesSquare className="h-10 w-10 text-slate-300" />
              <h2 className="mt-3 font-medium text-slate-800">{t.emptyTitle}</h2>
              <p className="mt-1 max-w-sm text-sm text-slate-500">{t.emptyText}</p>
            </div>
          ) : null}
          {transcript.messages.map((message) => (
            <ChatMessageView
              key={message.id}
              message={message}
              stepName={message.role === 'user' ? undefined : nameOf(message.stepId)}
              streamedText={message.role === 'system' ? streamOf(message.stepId) : undefined}
            />
          ))}
          {/* A run this chat did not start (another tab, or before a reload) still shows while it works. */}
          {activeRun && !showsProgress ? (
            <ProgressMessage
              title={t.inProgress(activeRun.stepOrder, nameOf(activeRun.stepId) ?? '')}
              streamedText={streaming[activeRun.runId]}
            />
          ) : null}
        </div>
      </div>

      <footer className="border-t border-slate-200 bg-white" data-bottom-bar>
        <div className="mx-auto flex max-w-3xl items-end gap-2 px-4 py-3">
          <Textarea
            value={text}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={onKeyDown}
            placeholder={t.placeholder}
            rows={2}
            className="flex-1"
            data-testid="chat-input"
          />
          <div className="flex flex-col gap-2">
            <Button
              onClick={send}
              disabled={busy || latest.isLoading}
              disabledReason={!text.trim() && whyDisabled.noMessageText}
              aria-label={t.send}
              data-testid="chat-send"
            >
              <Send className="h-4 w-4" />
              {t.send}
            </Button>
            <Button
              variant="outline"
              onClick={clear}
              disabledReason={transcript.messages.length === 0 && whyDisabled.noMessages}
              aria-label={t.clear}
              data-testid="chat-clear"
            >
              <Eraser className="h-4 w-4" />
              {t.clear}
            </Button>
          </div>
        </div>
      </footer>

      <ChatSettingsDialog
        open={settingsOpen}
        onOpenChange={setSettingsOpen}
        onOpenLogs={() => {
          setSettingsOpen(false);
          setLogsOpen(true);
        }}
        onOpenSuggestions={() => {
          setSettingsOpen(false);
          setSuggestionsOpen(true);
        }}
      />
      <LogsDialog flowId={flow.id} open={logsOpen} onOpenChange={setLogsOpen} />
      <SuggestionsDialog flowId={flow.id} open={suggestionsOpen} onOpenChange={setSuggestionsOpen} />
    </div>
  );
}
