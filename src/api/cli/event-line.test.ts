import { describe, expect, it } from 'vitest';
import {
  aStep,
  draft,
  executionStarted,
  stepRunStarted,
  stepRunSucceeded,
} from '../../domain/execution/testing';
import type { ExecutionEvent } from '../../domain/execution/types';
import type { RecordedEvent } from '../../eventstore';
import { eventJson, eventLine, eventSummary } from './event-line';

const STREAM = 'execution-0b6f0d6e-4a7e-4c43-9d1b-2f0e3a9b8c71';

function recorded(
  event: { type: string; data: unknown },
  fields: Partial<RecordedEvent> = {},
): RecordedEvent {
  return {
    globalPosition: 41,
    transactionId: '900',
    streamId: STREAM,
    streamPosition: 3,
    eventId: 'e0000000-0000-4000-8000-000000000003',
    type: event.type,
    data: event.data,
    metadata: {
      userId: 'user-1',
      commandId: 'command-7',
      correlationId: 'command-7',
      at: '2026-01-02T03:04:05.000Z',
    },
    createdAt: '2026-01-02T03:04:05.678Z',
    ...fields,
  };
}

const summaryOf = (event: ExecutionEvent) => eventSummary(recorded(event));
const one = aStep(1);
const loop = aStep(2, { outputMode: 'loop', maxLoopIterations: 3 });

describe('eventLine', () => {
  it('reads time, stream#position, type, actor, command and a summary', () => {
    const event = recorded({ type: 'ResultApproved', data: { resultId: 'result-9', at: 'x' } });
    expect(eventLine(event)).toBe(
      `2026-01-02T03:04:05.678Z  ${STREAM}#3  ResultApproved      actor=user-1  command=command-7  result result-9`,
    );
  });

  it('shows a dash for an actor or command the metadata lacks, and ends without trailing spaces', () => {
    const event = recorded({ type: 'ExecutionStopped', data: { at: 'x' } }, { metadata: {} });
    expect(eventLine(event)).toBe(
      `2026-01-02T03:04:05.678Z  ${STREAM}#3  ExecutionStopped    actor=-  command=-`,
    );
  });
});

describe('eventSummary of execution events', () => {
  it('names the flow and counts the steps of a start', () => {
    expect(summaryOf(executionStarted([one, loop], ['c1', 'c2', 'c3', 'c4']))).toBe('flow flow-1, 2 steps');
  });

  it('names the step, loop iteration, run, mode, model and key source, and the input of a run', () => {
    const started = stepRunStarted(loop, 'run-5', { cacheItemId: 'c3', loopIteration: 2 });
    expect(summaryOf(started)).toBe('step 2 loop 2 run run-5 (loop, offline, offline key) input "input"');
    expect(summaryOf(stepRunStarted(one, 'run-1', { cacheItemId: 'c1' }))).toBe(
      'step 1 run run-1 (single, offline, offline key) input "input"',
    );
  });

  it('counts and labels the results of a run and says how long it took', () => {
    const succeeded = stepRunSucceeded('run-1', [
      draft('r1', 'one', { label: 'Branch 1' }),
      draft('r2', 'two', { label: 'Branch 2' }),
    ]);
    expect(summaryOf(succeeded)).toBe('run run-1: 2 results "Branch 1", "Branch 2" in 5 ms');
    expect(summaryOf(stepRunSucceeded('run-2', [draft('r3', 'x')]))).toBe(
      'run run-2: 1 result "Branch 1" in 5 ms',
    );
  });

  it('quotes a failure and says when it may be retried', () => {
    const failed: ExecutionEvent = {
      type: 'StepRunFailed',
      data: { runId: 'run-1', message: 'quota exceeded', retryable: true, at: 'x' },
    };
    expect(summaryOf(failed)).toBe('run run-1: "quota exceeded" (retryable)');
  });

  it('shows an edit as before -> after on one line, cut short', () => {
    const edited: ExecutionEvent = {
      type: 'ResultEdited',
      data: {
        resultId: 'r1',
        label: 'Branch 1',
        before: 'first line\nsecond line',
        after: 'a much longer text that goes on and on past the thirty characters',
        at: 'x',
      },
    };
    expect(summaryOf(edited)).toBe(
      'result r1 "Branch 1": "first line second line" -> "a much longer text that goes …"',
    );
  });

  it('counts the work a reset makes pending again; stop and completion need no words', () => {
    expect(summaryOf({ type: 'ExecutionReset', data: { cacheItemIds: ['a', 'b'], at: 'x' } })).toBe(
      '2 cache items pending again',
    );
    expect(summaryOf({ type: 'ExecutionCompleted', data: { at: 'x' } })).toBe('');
  });
});

describe('eventSummary of other streams', () => {
  it('lists the plain fields of the data, leaving out time and nested values', () => {
    const event = recorded(
      {
        type: 'MasterRowRunStarted',
        data: {
          runId: 'run-1',
          stepType: 'ai',
          position: 2,
          prompt: 'Say hi',
          references: { a: 1 },
          at: 'x',
        },
      },
      { streamId: 'master-1' },
    );
    expect(eventSummary(event)).toBe('runId="run-1" stepType="ai" position=2 prompt="Say hi"');
  });

  it('shows an execution event type it has no words for by its plain fields too', () => {
    const event = recorded({ type: 'SomethingNew', data: { sourceExecutionId: 'x-1', count: 2 } });
    expect(eventSummary(event)).toBe('sourceExecutionId="x-1" count=2');
  });
});

describe('eventJson', () => {
  it('is one line of JSON with the position in the stream, the metadata and the data', () => {
    const event = recorded({ type: 'ResultApproved', data: { resultId: 'r1', at: 'x' } });
    const line = eventJson(event);
    expect(line).not.toContain('\n');
    expect(JSON.parse(line)).toEqual({
      streamId: STREAM,
      position: 3,
      globalPosition: 41,
      eventId: event.eventId,
      type: 'ResultApproved',
      createdAt: event.createdAt,
      metadata: event.metadata,
      data: { resultId: 'r1', at: 'x' },
    });
  });
});
