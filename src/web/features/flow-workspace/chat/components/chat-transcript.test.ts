import { describe, expect, it } from 'vitest';
import type { Execution } from '@/lib/execution-stream';
import { initialState } from '../../../../../domain/execution';
import { aFlowStep } from '../../../../../domain/execution/testing';
import type { QueueItem, StepResult, StepRun } from '../../../../../domain/execution/types';
import type { Step } from '../../../../../domain/flow';
import {
  addResults,
  type ChatTranscript,
  chatProgress,
  chatQueue,
  clearTranscript,
  emptyTranscript,
  endRun,
  nextChatStep,
  sendMessage,
} from './chat-transcript';

const step = (id: string, order: number, overrides: Partial<Step> = {}): Step =>
  aFlowStep(order, { id, name: `Bước ${order}`, systemPrompt: '', ...overrides });

const steps = [step('s1', 1), step('s2', 2), step('s3', 3)];

const execution = (queue: QueueItem[], results: StepResult[] = []): Execution => ({
  ...initialState(),
  exists: true,
  id: 'e1',
  executionQueue: queue,
  results,
  version: 1,
});

const queued = (stepId: string, isCompleted: boolean): QueueItem => ({
  stepId,
  isCompleted,
  loopIteration: 0,
});

const result = (id: string, stepOrder: number, text: string): StepResult => ({
  id,
  executionId: 'e1',
  stepId: `s${stepOrder}`,
  stepOrder,
  runId: `run-${id}`,
  label: 'Branch 1',
  branchName: null,
  branchPath: null,
  choiceIndex: null,
  loopIteration: null,
  result: text,
  approved: false,
  createdAt: '2026-01-01T00:00:00.000Z',
});

const send = (transcript: ChatTranscript, n: number, text: string, to: Step) =>
  sendMessage(transcript, { userMessageId: `u${n}`, progressMessageId: `p${n}`, text, step: to });

const contents = (transcript: ChatTranscript) =>
  transcript.messages.map((m) => (m.role === 'system' ? `system:${m.stepOrder}` : `${m.role}:${m.content}`));

describe('next step', () => {
  it('is the first step of the flow while no execution exists', () => {
    expect(nextChatStep(null, [steps[1]!, steps[0]!])?.id).toBe('s1');
  });

  it('is the first queue item not completed', () => {
    const current = execution([queued('s1', true), queued('s2', false), queued('s3', false)]);
    expect(nextChatStep(current, steps)?.id).toBe('s2');
  });

  it('skips nothing: a later completed item does not move it past an earlier open one', () => {
    const current = execution([queued('s1', false), queued('s2', true), queued('s3', false)]);
    expect(nextChatStep(current, steps)?.id).toBe('s1');
  });

  it('is none once every queue item is completed', () => {
    const current = execution([queued('s1', true), queued('s2', true), queued('s3', true)]);
    expect(nextChatStep(current, steps)).toBeNull();
    expect(nextChatStep(null, [])).toBeNull();
  });

  it('counts a step added to the flow after the execution began as still to do', () => {
    const current = execution([queued('s1', true), queued('s2', true)]);
    expect(nextChatStep(current, steps)?.id).toBe('s3');
    expect(chatQueue(current, steps).map((item) => item.isCompleted)).toEqual([true, true, false]);
  });
});

describe('progress', () => {
  it('is completed queue items out of all queue items', () => {
    const current = execution([queued('s1', true), queued('s2', false), queued('s3', false)]);
    expect(chatProgress(current, steps)).toEqual({ completed: 1, total: 3, percent: 33 });
    expect(chatProgress(null, steps)).toEqual({ completed: 0, total: 3, percent: 0 });
    expect(chatProgress(null, [])).toEqual({ completed: 0, total: 0, percent: 0 });
  });
});

describe('transcript', () => {
  it('appends the user message and an in-progress message for the step on each send', () => {
    const once = send(emptyTranscript, 1, 'Trà xanh', steps[0]!);
    expect(once.messages).toEqual([
      { id: 'u1', role: 'user', content: 'Trà xanh' },
      { id: 'p1', role: 'system', stepId: 's1', stepOrder: 1, stepName: 'Bước 1' },
    ]);
  });

  it('turns non-empty results into assistant messages by step order, once per result id', () => {
    const sent = send(emptyTranscript, 1, 'hello', steps[0]!);
    const answered = addResults(sent, [
      result('r2', 2, 'second'),
      result('r1', 1, 'first'),
      result('r0', 1, '  '),
    ]);
    expect(contents(answered)).toEqual(['user:hello', 'system:1', 'assistant:first', 'assistant:second']);
    expect(answered.messages[2]).toMatchObject({ role: 'assistant', resultId: 'r1', stepOrder: 1 });

    const again = addResults(answered, [result('r1', 1, 'first'), result('r2', 2, 'second')]);
    expect(again).toBe(answered);
  });

  it("opens on an execution that ran before with each step's current results, not every old version", () => {
    const rerun = (id: string, of: StepResult, text: string): StepResult => ({
      ...of,
      id,
      runId: `run-${id}`,
      result: text,
    });
    const first = result('r1', 1, 'first try');
    const results = [
      first,
      result('r2', 2, 'outline'),
      rerun('r3', first, 'second try'),
      rerun('r4', first, 'third try'),
    ];
    const opened = addResults(emptyTranscript, results);
    expect(contents(opened)).toEqual(['assistant:third try', 'assistant:outline']);
    // The old versions stay away; a new run afterwards shows as usual.
    expect(addResults(opened, results)).toBe(opened);
    const sent = send(opened, 1, 'again', steps[0]!);
    expect(contents(addResults(sent, [...results, rerun('r5', first, 'fourth try')])).slice(-1)).toEqual([
      'assistant:fourth try',
    ]);
  });

  it('opens with what the user sent each run before its answers, and what a run at work was sent last', () => {
    const run = (
      runId: string,
      stepOrder: number,
      userInput?: string,
      status: StepRun['status'] = 'succeeded',
    ) =>
      ({
        runId,
        stepId: `s${stepOrder}`,
        stepOrder,
        cacheItemId: null,
        loopIteration: 0,
        status,
        startedAt: '2026-01-01T00:00:00.000Z',
        ...(userInput === undefined ? {} : { userInput }),
      }) satisfies StepRun;
    const results = [
      result('r1', 1, 'A'),
      result('r2', 2, 'B'),
      { ...result('r0', 1, 'old A'), runId: 'run-r0' },
    ];
    const runs = [
      run('run-r0', 1, 'first ask'),
      run('run-r1', 1, 'Trà xanh'),
      // Run mode's default input is nobody's message: the run keeps none.
      run('run-r2', 2),
      run('run-failed', 3, 'lost', 'failed'),
      run('run-now', 3, 'Viết tiếp', 'running'),
    ];
    // Results come back from the server ordered by step; the superseded one is not shown, nor its message.
    const opened = addResults(emptyTranscript, [results[2]!, results[0]!, results[1]!], runs);
    expect(contents(opened)).toEqual(['user:Trà xanh', 'assistant:A', 'assistant:B', 'user:Viết tiếp']);
    expect(opened.messages[0]).toEqual({ id: 'sent-run-r1', role: 'user', content: 'Trà xanh' });
    // Once open, the runs' messages are not added again: a send shows its own.
    expect(addResults(opened, results, runs)).toBe(opened);
    expect(contents(addResults(opened, [...results, result('r3', 3, 'C')], runs)).slice(4)).toEqual([
      'assistant:C',
    ]);
  });

  it('shows an empty result once it has been edited into text', () => {
    const empty = addResults(emptyTranscript, [result('r1', 1, '')]);
    expect(empty.messages).toEqual([]);
    expect(contents(addResults(empty, [result('r1', 1, 'edited')]))).toEqual(['assistant:edited']);
  });

  it('drops the in-progress message when the run ends and keeps the rest', () => {
    const sent = send(emptyTranscript, 1, 'hello', steps[0]!);
    const answered = addResults(sent, [result('r1', 1, 'first')]);
    expect(contents(endRun(answered))).toEqual(['user:hello', 'assistant:first']);
    const failed = endRun(sent);
    expect(contents(failed)).toEqual(['user:hello']);
    expect(endRun(failed)).toBe(failed);
  });

  it('keeps earlier sends when the next one comes', () => {
    let transcript = endRun(addResults(send(emptyTranscript, 1, 'one', steps[0]!), [result('r1', 1, 'A')]));
    transcript = endRun(
      addResults(send(transcript, 2, 'two', steps[1]!), [result('r1', 1, 'A'), result('r2', 2, 'B')]),
    );
    expect(contents(transcript)).toEqual(['user:one', 'assistant:A', 'user:two', 'assistant:B']);
  });

  it('empties on clear, and results already there do not come back', () => {
    const results = [result('r1', 1, 'A'), result('r2', 2, 'B')];
    const shown = addResults(send(emptyTranscript, 1, 'one', steps[0]!), [results[0]!]);
    const cleared = clearTranscript(shown, results);
    expect(cleared.messages).toEqual([]);
    expect(addResults(cleared, results).messages).toEqual([]);
    expect(contents(addResults(cleared, [...results, result('r3', 3, 'C')]))).toEqual(['assistant:C']);
  });
});
