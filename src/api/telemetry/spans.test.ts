import { node } from '@opentelemetry/sdk-node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ModelCallError } from '../../ai';
import type { ExecutionEvent, ExecutionState, Review } from '../../domain/execution/types';
import { traceReviewDecisions } from './review-decisions';
import { recordAttribute, traceChat, traceContextNow, traceJob, traceRun } from './spans';

// The product's spans on an SDK of the test's own, exported to memory.
const exporter = new node.InMemorySpanExporter();
const provider = new node.NodeTracerProvider({ spanProcessors: [new node.SimpleSpanProcessor(exporter)] });

beforeAll(() => provider.register());
afterAll(() => provider.shutdown());
beforeEach(() => exporter.reset());

const spanNamed = (name: string) => {
  const span = exporter.getFinishedSpans().find((candidate) => candidate.name === name);
  if (!span) throw new Error(`no span ${name} among ${exporter.getFinishedSpans().map((s) => s.name)}`);
  return span;
};

const provider4 = { kind: 'openai', model: 'gpt-4.1-mini' } as const;
const request = { system: 'Be brief.', prompt: 'The secret plan' };

describe('a run and its model call', () => {
  it('makes the chat span the run span’s child, both pointing at the record and its event', async () => {
    await traceRun(
      { record: recordAttribute('execution', 'e-1'), stepId: 's-1', runId: 'r-1' },
      async (run) => {
        run.named('Draft');
        run.started(7);
        await traceChat({ modelId: 'openai:gpt-4.1-mini', provider: provider4, request }, async (chat) => {
          chat.firstChunk();
          chat.answered({ text: 'The secret answer', usage: { inputTokens: 5, outputTokens: 2 } });
        });
        run.ended(9);
      },
    );
    const step = spanNamed('step Draft');
    const chat = spanNamed('chat gpt-4.1-mini');
    expect(chat.parentSpanContext?.spanId).toBe(step.spanContext().spanId);
    expect(step.attributes).toMatchObject({
      'workbench.execution.id': 'e-1',
      'workbench.step.id': 's-1',
      'workbench.event.position': 7,
      'workbench.event.end_position': 9,
    });
    expect(chat.attributes).toMatchObject({
      'workbench.execution.id': 'e-1',
      'workbench.event.position': 7,
      'gen_ai.provider.name': 'openai',
      'gen_ai.usage.input_tokens': 5,
      'gen_ai.usage.output_tokens': 2,
    });
    expect(chat.events.map((event) => event.name)).toEqual(['gen_ai.response.first_chunk']);
    expect(JSON.stringify(exporter.getFinishedSpans().map((s) => [s.attributes, s.events]))).not.toContain(
      'secret',
    );
  });

  it('marks a failed call with error.type and status ERROR, and the run it failed', async () => {
    const refused = new ModelCallError('Rate limited: the secret plan', { retryable: true, status: 429 });
    await expect(
      traceRun({ record: recordAttribute('master_session', 'm-1'), stepId: 's-2', runId: 'r-2' }, () =>
        traceChat({ modelId: 'openai:gpt-4.1-mini', provider: provider4, request }, async (chat) => {
          chat.failed(refused, null);
          throw refused;
        }),
      ),
    ).rejects.toBe(refused);
    const chat = spanNamed('chat gpt-4.1-mini');
    expect(chat.attributes['error.type']).toBe('429');
    expect(chat.attributes['workbench.master_session.id']).toBe('m-1');
    expect(chat.status.code).toBe(2);
    expect(spanNamed('step').attributes['error.type']).toBe('429');
    expect(JSON.stringify([chat.attributes, chat.events, chat.status])).not.toContain('secret');
  });

  it('names a call cut off by a Stop as stopped', async () => {
    await traceChat({ modelId: 'openai:gpt-4.1-mini', provider: provider4, request }, async (chat) =>
      chat.failed(new Error('aborted'), 'stopped'),
    );
    expect(spanNamed('chat gpt-4.1-mini').attributes['error.type']).toBe('stopped');
  });
});

describe('a job', () => {
  it('runs in a CONSUMER span linked to the span that queued it, in a trace of its own', async () => {
    const data = await traceRun(
      { record: recordAttribute('execution', 'e-3'), stepId: 's-3', runId: 'r-3' },
      async () => ({ eventId: 'x', traceContext: traceContextNow() }),
    );
    expect(data.traceContext.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    await traceJob('webhook', { id: 'job-1', data }, async () => {});
    const queuedBy = spanNamed('step');
    const job = spanNamed('process webhook');
    expect(job.kind).toBe(4);
    expect(job.parentSpanContext).toBeUndefined();
    expect(job.links.map((link) => link.context.spanId)).toEqual([queuedBy.spanContext().spanId]);
    expect(job.spanContext().traceId).not.toBe(queuedBy.spanContext().traceId);
  });

  it('has no link when it carries no trace context (queued with tracing off)', async () => {
    await traceJob('mail', { id: 'job-2', data: {} }, async () => {});
    expect(spanNamed('process mail').links).toEqual([]);
  });
});

describe('review decisions', () => {
  const review = {
    id: 'rv-1',
    requestedAt: '2026-01-01T10:00:00.000Z',
    approvalsNeeded: 2,
    approvalsGiven: [{ userId: 'person-1', role: 'reviewer', comment: 'Fine by me', at: '' }],
    status: 'pending',
  } as unknown as Review;

  it('is a span per decision with its event’s position, the quorum and the role, not the person', () => {
    const events = [
      { type: 'StepResultEdited', data: {} },
      {
        type: 'ReviewApproved',
        data: {
          reviewId: 'rv-1',
          userId: 'person-1',
          role: 'reviewer',
          comment: 'Fine by me',
          at: '2026-01-01T10:30:00.000Z',
        },
      },
    ] as unknown as ExecutionEvent[];
    traceReviewDecisions('e-4', {
      state: { reviews: [review] } as unknown as ExecutionState,
      version: 12,
      events,
    });
    const decision = spanNamed('review decision');
    expect(decision.attributes).toEqual({
      'workbench.execution.id': 'e-4',
      'workbench.event.position': 12,
      'workbench.review.id': 'rv-1',
      'workbench.review.decision': 'approve',
      'workbench.review.status': 'pending',
      'workbench.review.quorum': '1 of 2',
      'workbench.review.approvals': 1,
      'workbench.review.approvals_needed': 2,
      'workbench.review.decider_role': 'reviewer',
      'workbench.review.waited_ms': 30 * 60 * 1000,
    });
  });

  it('is no span again when a command is sent again with its Idempotency-Key: its first answer had it', () => {
    const approved = {
      type: 'ReviewApproved',
      data: {
        reviewId: 'rv-1',
        userId: 'person-1',
        role: 'reviewer',
        comment: '',
        at: '2026-01-01T10:30:00.000Z',
      },
    } as unknown as ExecutionEvent;
    traceReviewDecisions('e-4', {
      state: { reviews: [review] } as unknown as ExecutionState,
      version: 15,
      events: [approved],
      repeated: true,
    });
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});
