import { describe, expect, it } from 'vitest';
import {
  aFlowStep,
  aStep,
  draft,
  executionStarted,
  stepRunStarted,
  stepRunSucceeded,
} from '../../domain/execution/testing';
import type { ExecutionEvent } from '../../domain/execution/types';
import { decider as flowDecider } from '../../domain/flow/decider';
import type { FlowEvent, FlowState, VersionedStep } from '../../domain/flow/events';
import type { RecordedEvent } from '../../eventstore';
import { eventJson, eventLine, eventLines, eventSummary, flowAfter } from './event-line';

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

const FLOW_STREAM = 'flow-5c0d7a3e-1b2f-4e6a-8c9d-0a1b2c3d4e5f';
const DETAILS = { name: 'Blog', description: 'Ideas, then a post', status: 'draft', isTemplate: false };

/** A flow's step as its stream records it: aFlowStep's fields, without its flow. */
function versioned(id: string, order: number, fields: Partial<VersionedStep> = {}): VersionedStep {
  const { flowId: _flow, ...step } = aFlowStep(order, { id, ...fields });
  return step;
}

const ideas = versioned('s1', 1, { name: 'Ideas' });
const post = versioned('s2', 2, { name: 'Post' });
const created: FlowEvent = {
  type: 'FlowCreated',
  data: { flowId: 'f1', userId: 'u1', origin: 'ai-creator', details: DETAILS, steps: [ideas, post], at: 'x' },
};
const promptEdited: FlowEvent = {
  type: 'StepEdited',
  data: {
    stepId: 's2',
    before: { systemPrompt: 'old' },
    after: { systemPrompt: 'new', name: 'Draft' },
    at: 'x',
  },
};

const ofFlow = (event: { type: string; data: unknown }, streamPosition = 1) =>
  recorded(event, { streamId: FLOW_STREAM, streamPosition });
const flowSummaryOf = (event: FlowEvent, before: FlowState = flowDecider.initialState()) =>
  eventSummary(ofFlow(event), before);

describe('eventSummary of flow events', () => {
  it('says how a flow came to be, with how many steps and its name', () => {
    expect(flowSummaryOf(created)).toBe('Tạo bằng AI Creator, gồm 2 step, named "Blog"');
    const imported: FlowEvent = {
      type: 'FlowImported',
      data: { flowId: 'f1', userId: 'u1', createdAt: 'x', details: DETAILS, steps: [ideas], at: 'x' },
    };
    expect(flowSummaryOf(imported)).toBe('Ghi nhận flow như đang có, gồm 1 step, named "Blog"');
  });

  it('says what a version changed in the words of the version history', () => {
    const described: FlowEvent = {
      type: 'FlowDescribed',
      data: {
        before: { name: 'Blog', description: 'a' },
        after: { name: 'Posts', description: 'b' },
        at: 'x',
      },
    };
    expect(flowSummaryOf(described)).toBe('Đổi tên thành "Posts"; Đổi mô tả');
    expect(
      flowSummaryOf({ type: 'FlowStatusChanged', data: { before: 'draft', after: 'active', at: 'x' } }),
    ).toBe('Đổi status: draft → active');
    const reordered: FlowEvent = {
      type: 'StepsReordered',
      data: {
        orders: [
          { stepId: 's1', before: 1, after: 2 },
          { stepId: 's2', before: 2, after: 1 },
        ],
        at: 'x',
      },
    };
    expect(flowSummaryOf(reordered)).toBe('Sắp xếp lại 2 step');
    const restored: FlowEvent = {
      type: 'FlowRestored',
      data: { version: 3, details: DETAILS, steps: [ideas], at: 'x' },
    };
    expect(flowSummaryOf(restored)).toBe('Khôi phục Version 3');
    expect(flowSummaryOf({ type: 'FlowDeleted', data: { at: 'x' } })).toBe('Xóa flow');
  });

  it('names the step added, removed or edited, and gives its id', () => {
    expect(flowSummaryOf({ type: 'StepAdded', data: { step: post, at: 'x' } })).toBe(
      'Thêm step "Post" (step s2)',
    );
    expect(flowSummaryOf({ type: 'StepRemoved', data: { step: ideas, at: 'x' } })).toBe(
      'Xóa step "Ideas" (step s1)',
    );
    const before = flowDecider.evolve(flowDecider.initialState(), created);
    expect(flowSummaryOf(promptEdited, before)).toBe('Sửa step "Post": tên, prompt (step s2)');
  });

  it('says "a step" for an edited step when the flow before the edit is not known', () => {
    expect(flowSummaryOf(promptEdited)).toBe('Sửa step "một step": tên, prompt (step s2)');
  });

  it('shows a flow event type it has no words for by its plain fields', () => {
    expect(eventSummary(ofFlow({ type: 'FlowShared', data: { withUserId: 'u2', at: 'x' } }))).toBe(
      'withUserId="u2"',
    );
  });
});

describe('eventLines', () => {
  it('follows a flow from its first event, so an edit names its step as it was called', () => {
    const line = eventLines();
    const lines = [ofFlow(created, 1), ofFlow(promptEdited, 2), ofFlow(promptEdited, 3)].map(line);
    expect(lines[1]).toMatch(/ {2}Sửa step "Post": tên, prompt \(step s2\)$/);
    expect(lines[2]).toMatch(/ {2}Sửa step "Draft": tên, prompt \(step s2\)$/);
  });

  it('reads a flow first seen in the middle of its stream event by event', () => {
    const line = eventLines();
    expect(line(ofFlow(promptEdited, 4))).toMatch(/Sửa step "một step": tên, prompt \(step s2\)$/);
    expect(line(ofFlow(promptEdited, 5))).toMatch(/Sửa step "một step": tên, prompt \(step s2\)$/);
  });

  it('keeps each flow apart, and execution lines as they are', () => {
    const line = eventLines();
    const approved = recorded({ type: 'ResultApproved', data: { resultId: 'r1', at: 'x' } });
    expect(line(ofFlow(created, 1))).toContain(`${FLOW_STREAM}#1  FlowCreated `);
    expect(line(approved)).toBe(eventLine(approved));
    const otherFlow = recorded(promptEdited, { streamId: 'flow-other', streamPosition: 2 });
    expect(line(otherFlow)).toMatch(/Sửa step "một step"/);
  });
});

describe('flowAfter', () => {
  it("folds a flow from its stream's first event, and knows nothing of a flow met later or of other streams", () => {
    const first = flowAfter(undefined, ofFlow(created, 1));
    expect(first?.steps.map((step) => step.name)).toEqual(['Ideas', 'Post']);
    expect(flowAfter(first, ofFlow(promptEdited, 2))?.steps[1]?.name).toBe('Draft');
    expect(flowAfter(undefined, ofFlow(promptEdited, 2))).toBeUndefined();
    expect(flowAfter(undefined, recorded({ type: 'ExecutionStopped', data: { at: 'x' } }))).toBeUndefined();
  });

  it('leaves the flow as it was on a type the fold does not know', () => {
    const before = flowAfter(undefined, ofFlow(created, 1));
    expect(flowAfter(before, ofFlow({ type: 'FlowShared', data: { at: 'x' } }, 2))).toBe(before);
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
