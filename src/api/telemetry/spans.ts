import {
  type Context,
  context,
  createContextKey,
  type Link,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import type { ModelAnswer, ModelProvider } from '../../ai';
import {
  chatRequestAttributes,
  chatResponseAttributes,
  errorTypeOf,
  inferenceDetails,
  type SpanAttributes,
} from './gen-ai';
import { capturesMessageContent, SERVICE_NAME } from './settings';

/**
 * The product's own spans: runs, model calls, review decisions, deliveries and jobs. Through the
 * OpenTelemetry API alone: when tracing is off (no SDK started) every span here is the API's no-op one and
 * costs next to nothing. Each span of a record carries the record's id (`workbench.execution.id`,
 * `workbench.master_session.id`, ...) and `workbench.event.position`, the stream position of the event that
 * recorded it: a trace points at the audit record instead of copying it.
 */
const tracer = trace.getTracer(SERVICE_NAME);

/** Read once: whether prompts and answers go into the chat spans' details events (off by default). */
const CAPTURE_CONTENT = capturesMessageContent(process.env);

/** The record the spans started within it belong to: its id attribute, and the position once known. */
const RECORD = createContextKey('workbench.record');

const recordOf = (ctx: Context): SpanAttributes => (ctx.getValue(RECORD) as SpanAttributes | undefined) ?? {};

/** The attributes naming a record: `workbench.<kind>.id`. */
export type RecordKind = 'execution' | 'master_session' | 'experiment' | 'flow' | 'workspace';

export const recordAttribute = (kind: RecordKind, id: string): SpanAttributes => ({
  [`workbench.${kind}.id`]: id,
});

/** The stream position of the event that recorded what a span shows. */
export const POSITION = 'workbench.event.position';

/** Marks `span` as failed: status ERROR and `error.type`. */
function markFailed(span: Span, errorType: string) {
  span.setAttribute('error.type', errorType);
  span.setStatus({ code: SpanStatusCode.ERROR });
}

/** A span as its work sees it. */
interface Traced {
  span: Span;
  /** The record's attributes, passed on to the spans started within (a position set here reaches them). */
  record: SpanAttributes;
  /** Marks the span failed with this `error.type` (else a thrown error marks it). */
  fail(errorType: string): void;
}

/**
 * Runs `work` in a span made active: the spans started within are its children, and carry the record's
 * attributes (those of the record it runs within, and `record`). The span ends when the work settles, marked
 * failed when it throws.
 */
async function inSpan<T>(
  name: string,
  options: {
    kind: SpanKind;
    record?: SpanAttributes;
    attributes?: SpanAttributes;
    links?: Link[];
    parent?: Context;
  },
  work: (traced: Traced) => Promise<T>,
): Promise<T> {
  const parent = options.parent ?? context.active();
  const record = { ...recordOf(parent), ...options.record };
  const span = tracer.startSpan(
    name,
    {
      kind: options.kind,
      attributes: { ...record, ...options.attributes },
      ...(options.links ? { links: options.links } : {}),
    },
    parent,
  );
  let marked = false;
  const fail = (errorType: string) => {
    marked = true;
    markFailed(span, errorType);
  };
  try {
    return await context.with(trace.setSpan(parent, span).setValue(RECORD, record), () =>
      work({ span, record, fail }),
    );
  } catch (error) {
    if (!marked) fail(errorTypeOf(error, null));
    throw error;
  } finally {
    span.end();
  }
}

/** A run's span as it goes: the positions of its start and end events once recorded. */
export interface RunSpan {
  /** The stream position of the event that recorded the run's start: the record the whole run points at. */
  started(position: number): void;
  /** The stream position of the event that recorded its outcome. */
  ended(position: number): void;
  /** The step's (or row's) name, for the span's name. */
  named(name: string): void;
}

/**
 * A step run or a master mode row run, from its request to its recorded outcome: an INTERNAL span
 * `step <name>` (`gen_ai.operation.name` invoke_workflow: the run is one step of the flow as a workflow), the
 * model call its child.
 */
export function traceRun<T>(
  run: { record: SpanAttributes; stepId: string; runId: string },
  work: (span: RunSpan) => Promise<T>,
): Promise<T> {
  return inSpan(
    'step',
    {
      kind: SpanKind.INTERNAL,
      record: run.record,
      attributes: {
        'gen_ai.operation.name': 'invoke_workflow',
        'workbench.step.id': run.stepId,
        'workbench.run.id': run.runId,
      },
    },
    ({ span, record }) =>
      work({
        started: (position) => {
          span.setAttribute(POSITION, position);
          record[POSITION] = position;
        },
        ended: (position) => span.setAttribute('workbench.event.end_position', position),
        named: (name) => span.updateName(`step ${name}`),
      }),
  );
}

/** A chat span as the answer comes: its first text, then the whole answer. */
export interface ChatSpan {
  /** The model's first text came now. */
  firstChunk(): void;
  /** The whole answer came. */
  answered(answer: ModelAnswer): void;
  /** The call ended without an answer: `stopped` or `interrupted` when it was cut off, else what failed. */
  failed(error: unknown, aborted: 'stopped' | 'interrupted' | null): void;
}

/**
 * A model call: a CLIENT span `chat <model>` with the GenAI attributes (provider, models, token counts,
 * finish reason, `error.type`), the time to the first text as an event and as
 * `gen_ai.response.time_to_first_chunk`. The prompt and the answer are never on it unless the operator turned
 * content capture on (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true): then, and only then, they are
 * in its `gen_ai.client.inference.operation.details` event.
 */
export function traceChat<T>(
  call: {
    modelId: string;
    provider: Pick<ModelProvider, 'kind' | 'model'>;
    request: { system: string; prompt: string };
    /** The record's attributes the call belongs to, beyond those of the record the call is made within. */
    record?: SpanAttributes;
  },
  work: (span: ChatSpan) => Promise<T>,
): Promise<T> {
  const chat = chatRequestAttributes(call.modelId, call.provider);
  return inSpan(
    `chat ${call.provider.model}`,
    { kind: SpanKind.CLIENT, record: call.record ?? {}, attributes: chat },
    ({ span, fail }) => {
      const sent = performance.now();
      let first = false;
      return work({
        firstChunk: () => {
          if (first) return;
          first = true;
          span.setAttribute('gen_ai.response.time_to_first_chunk', (performance.now() - sent) / 1000);
          span.addEvent('gen_ai.response.first_chunk');
        },
        answered: (answer) => {
          span.setAttributes(chatResponseAttributes(call.provider, answer));
          if (CAPTURE_CONTENT)
            span.addEvent(
              'gen_ai.client.inference.operation.details',
              inferenceDetails(call.request, answer, chat),
            );
        },
        failed: (error, aborted) => fail(errorTypeOf(error, aborted)),
      });
    },
  );
}

/**
 * A decision on a review (approved, rejected, or its due time passed): an INTERNAL span with the decision,
 * the quorum (approvals given of those needed), the decider's role in the workspace, how long the review
 * waited, and the position of the event that recorded it. Whose decision it was is in the record, not here.
 */
export function traceReviewDecision(decision: {
  record: SpanAttributes;
  position: number;
  reviewId: string;
  decision: string;
  /** The review's status after it: pending (an approval short of the quorum), approved, rejected, expired. */
  status: string;
  approvals: number;
  needed: number;
  role: string | null;
  waitedMs: number | null;
}): void {
  const span = tracer.startSpan('review decision', {
    kind: SpanKind.INTERNAL,
    attributes: {
      ...recordOf(context.active()),
      ...decision.record,
      [POSITION]: decision.position,
      'workbench.review.id': decision.reviewId,
      'workbench.review.decision': decision.decision,
      'workbench.review.status': decision.status,
      'workbench.review.quorum': `${decision.approvals} of ${decision.needed}`,
      'workbench.review.approvals': decision.approvals,
      'workbench.review.approvals_needed': decision.needed,
      ...(decision.role ? { 'workbench.review.decider_role': decision.role } : {}),
      ...(decision.waitedMs === null ? {} : { 'workbench.review.waited_ms': decision.waitedMs }),
    },
  });
  span.end();
}

/**
 * An outgoing delivery (a webhook's POST, a mail through SMTP): a CLIENT span; the HTTP client span of a
 * webhook's request is its child.
 */
export function traceDelivery<T>(
  name: string,
  attributes: SpanAttributes,
  work: (span: DeliverySpan) => Promise<T>,
): Promise<T> {
  return inSpan(name, { kind: SpanKind.CLIENT, attributes }, ({ span, fail }) =>
    work({
      setStatusCode: (status) => span.setAttribute('http.response.status_code', status),
      failed: fail,
    }),
  );
}

/** A delivery's span as it goes. */
export interface DeliverySpan {
  /** The HTTP status the receiver answered. */
  setStatusCode(status: number): void;
  /** Not delivered: `error.type` says why (a status, `no_answer`). */
  failed(errorType: string): void;
}

/** The W3C trace context of the span active now, to travel with a job: empty when tracing is off. */
export function traceContextNow(): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

/**
 * A job of the queue as it runs: a CONSUMER span `process <queue>`, linked to the span that queued it (the
 * trace context the job carries) rather than its child: the job runs later, maybe on another instance.
 */
export function traceJob<T>(
  queue: string,
  job: { id: string; data: object },
  work: () => Promise<T>,
): Promise<T> {
  const carried = (job.data as { traceContext?: Record<string, string> }).traceContext;
  const queued = carried ? trace.getSpanContext(propagation.extract(ROOT_CONTEXT, carried)) : undefined;
  return inSpan(
    `process ${queue}`,
    {
      kind: SpanKind.CONSUMER,
      parent: ROOT_CONTEXT,
      attributes: {
        'messaging.system': 'pg-boss',
        'messaging.operation.type': 'process',
        'messaging.destination.name': queue,
        'messaging.message.id': job.id,
      },
      ...(queued ? { links: [{ context: queued }] } : {}),
    },
    () => work(),
  );
}
