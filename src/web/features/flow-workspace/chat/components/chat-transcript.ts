import type { Execution } from '@/lib/execution-stream';
import type { Step } from '@/lib/steps-query';
import type { QueueItem, StepResult, StepRun } from '../../../../../domain/execution/types';

/** One line of the chat: what the user sent, a step at work, or a step's answer. */
export type ChatMessage =
  | { id: string; role: 'user'; content: string }
  | { id: string; role: 'system'; stepId: string; stepOrder: number; stepName: string }
  | {
      id: string;
      role: 'assistant';
      resultId: string;
      stepId: string;
      stepOrder: number;
      label: string | null;
      content: string;
    };

export interface ChatTranscript {
  messages: ChatMessage[];
  /** Results already turned into messages, or cleared away: each one is shown at most once. */
  shownResultIds: string[];
}

export const emptyTranscript: ChatTranscript = { messages: [], shownResultIds: [] };

const byOrder = (a: Step, b: Step) => a.order - b.order;

/**
 * The queue the chat walks through, in the flow's step order. The server syncs an execution with the
 * flow's steps before each run, so a step added since the execution began counts as not done yet and a
 * removed step no longer counts; with no execution every step is still to do.
 */
export function chatQueue(execution: Execution | null, steps: readonly Step[]): QueueItem[] {
  return [...steps].sort(byOrder).map(
    (step) =>
      execution?.executionQueue.find((item) => item.stepId === step.id) ?? {
        stepId: step.id,
        isCompleted: false,
        loopIteration: 0,
      },
  );
}

/** "The next step is the first queue item not completed"; null when every step is done. */
export function nextChatStep(execution: Execution | null, steps: readonly Step[]): Step | null {
  const next = chatQueue(execution, steps).find((item) => !item.isCompleted);
  return (next && steps.find((step) => step.id === next.stepId)) ?? null;
}

/** Queue items completed out of all of them, and the share done in percent. */
export function chatProgress(execution: Execution | null, steps: readonly Step[]) {
  const queue = chatQueue(execution, steps);
  const completed = queue.filter((item) => item.isCompleted).length;
  return {
    completed,
    total: queue.length,
    percent: queue.length === 0 ? 0 : Math.round((completed / queue.length) * 100),
  };
}

/** A send: the user's text, then a note that the step it goes to is at work. */
export function sendMessage(
  transcript: ChatTranscript,
  send: { userMessageId: string; progressMessageId: string; text: string; step: Step },
): ChatTranscript {
  return {
    ...transcript,
    messages: [
      ...transcript.messages,
      { id: send.userMessageId, role: 'user', content: send.text },
      {
        id: send.progressMessageId,
        role: 'system',
        stepId: send.step.id,
        stepOrder: send.step.order,
        stepName: send.step.name,
      },
    ],
  };
}

/** Each step's current results: of every step (and loop iteration), those of its latest run only. */
export function currentResults(results: readonly StepResult[]): StepResult[] {
  const latestRun = new Map<string, string>();
  for (const result of results) latestRun.set(`${result.stepId}:${result.loopIteration ?? 0}`, result.runId);
  return results.filter(
    (result) => latestRun.get(`${result.stepId}:${result.loopIteration ?? 0}`) === result.runId,
  );
}

/**
 * Results not shown yet become the step's answers, by step order. An empty result says nothing and
 * stays unshown, so it appears once it is edited into text. A chat opened on an execution that ran before
 * starts from each step's current results: older versions are not replayed as a wall of messages. It
 * opens with what the user sent as well, which the runs keep: each message before the answers it asked
 * for, and the one a run still at work was sent last.
 */
export function addResults(
  transcript: ChatTranscript,
  results: readonly StepResult[],
  runs: readonly StepRun[] = [],
): ChatTranscript {
  const opening = transcript.messages.length === 0 && transcript.shownResultIds.length === 0;
  const shown = new Set(transcript.shownResultIds);
  const current = opening ? new Set(currentResults(results).map((result) => result.id)) : null;
  const superseded = current ? results.filter((result) => !current.has(result.id)).map((r) => r.id) : [];
  const fresh = results
    .filter((result) => !shown.has(result.id) && (current === null || current.has(result.id)))
    .filter((result) => result.result.trim() !== '')
    .sort((a, b) => a.stepOrder - b.stepOrder);
  const sentTo = new Map(opening ? runs.filter((run) => run.userInput).map((run) => [run.runId, run]) : []);
  const messages: ChatMessage[] = [];
  const addSent = (run: StepRun | undefined) => {
    if (!run?.userInput || !sentTo.delete(run.runId)) return;
    messages.push({ id: `sent-${run.runId}`, role: 'user', content: run.userInput });
  };
  for (const result of fresh) {
    addSent(sentTo.get(result.runId));
    messages.push({
      id: `result-${result.id}`,
      role: 'assistant',
      resultId: result.id,
      stepId: result.stepId,
      stepOrder: result.stepOrder,
      label: result.label,
      content: result.result,
    });
  }
  for (const run of sentTo.values()) if (run.status === 'running') addSent(run);
  if (messages.length === 0 && superseded.length === 0) return transcript;
  return {
    messages: [...transcript.messages, ...messages],
    shownResultIds: [...transcript.shownResultIds, ...superseded, ...fresh.map((result) => result.id)],
  };
}

/** The run ended, well or not: the step is no longer at work. */
export function endRun(transcript: ChatTranscript): ChatTranscript {
  if (!transcript.messages.some((message) => message.role === 'system')) return transcript;
  return { ...transcript, messages: transcript.messages.filter((message) => message.role !== 'system') };
}

/** An empty chat; the answers it held stay away rather than coming back with the next update. */
export function clearTranscript(transcript: ChatTranscript, results: readonly StepResult[]): ChatTranscript {
  const shown = new Set([...transcript.shownResultIds, ...results.map((result) => result.id)]);
  return { messages: [], shownResultIds: [...shown] };
}
