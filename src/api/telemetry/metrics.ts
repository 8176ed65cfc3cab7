import { subscribe } from 'node:diagnostics_channel';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { ModelAnswer, ModelProvider } from '../../ai';
import { parseModelId } from '../../domain/model-choice';
import { APPEND_TIMING_CHANNEL, type AppendTiming } from '../../eventstore';
import { NOT_READY_REASONS } from '../runtime/health';
import { errorTypeOf, genAiProviderName } from './gen-ai';

/**
 * The process's Prometheus metrics: one registry, as a scrape target is a process (several apps made in one
 * process, as tests do, share it; what each app can tell at a scrape is asked of every app, see
 * `addScrapeSource`). Each thing is counted at the one place it happens, by a call of one line to a function
 * here. Labels are only of bounded sets (a provider, a model, an outcome, a route's template, a queue's
 * name): never a user, workspace, flow or execution id, never a raw URL.
 *
 * The GenAI client metrics follow the OpenTelemetry GenAI semantic conventions (gen_ai.client.token.usage,
 * gen_ai.client.operation.duration, with their explicit bucket boundaries and attributes), named as
 * Prometheus names them.
 */
export const registry = new Registry();

let processMetrics = false;

/** Node's default process metrics (CPU, memory, event loop lag, GC, handles), from the first call on. */
export function collectProcessMetrics(): void {
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: registry });
}

let scraping: Promise<string> | null = null;

/**
 * The scrape's answer: Prometheus text. Scrapes that come while one is being read share its answer, so a
 * scraper that asks too often costs the database one scrape's reads at a time.
 */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  scraping ??= registry.metrics().finally(() => {
    scraping = null;
  });
  return { contentType: registry.contentType, body: await scraping };
}

/** The convention's bucket boundaries of gen_ai.client.token.usage, in tokens. */
const TOKEN_BUCKETS = [
  1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
];

/** The convention's bucket boundaries of gen_ai.client.operation.duration, in seconds. */
const MODEL_CALL_SECONDS_BUCKETS = [
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
];

const tokenUsage = new Histogram({
  name: 'gen_ai_client_token_usage',
  help: 'Number of input and output tokens used by model calls (gen_ai.client.token.usage, unit {token})',
  labelNames: [
    'gen_ai_operation_name',
    'gen_ai_provider_name',
    'gen_ai_request_model',
    'gen_ai_response_model',
    'gen_ai_token_type',
  ] as const,
  buckets: TOKEN_BUCKETS,
  registers: [registry],
});

const modelCallDuration = new Histogram({
  name: 'gen_ai_client_operation_duration_seconds',
  help: 'Duration of model calls, from the request to the whole answer (gen_ai.client.operation.duration)',
  labelNames: [
    'gen_ai_operation_name',
    'gen_ai_provider_name',
    'gen_ai_request_model',
    'gen_ai_response_model',
    'error_type',
  ] as const,
  buckets: MODEL_CALL_SECONDS_BUCKETS,
  registers: [registry],
});

const modelCalls = new Counter({
  name: 'workbench_model_calls_total',
  help: 'Model calls of step runs and master mode rows, by provider, model and outcome',
  labelNames: ['provider', 'model', 'outcome'] as const,
  registers: [registry],
});

const stepRuns = new Counter({
  name: 'workbench_step_runs_total',
  help: 'Step runs of flows by outcome: succeeded, failed, stopped (a Stop), interrupted (this process stopping)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

const appendDuration = new Histogram({
  name: 'workbench_event_append_duration_seconds',
  help: "Time of each committed append to the event log, from the call to its commit (with the read models' writes)",
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});

const commandsRetried = new Counter({
  name: 'workbench_commands_retried_total',
  help: 'Commands tried again because another command moved their stream on first, by the stream type',
  labelNames: ['stream_type'] as const,
  registers: [registry],
});

const webSocketMessages = new Counter({
  name: 'workbench_websocket_messages_sent_total',
  help: 'Messages sent to live update websockets by this process',
  registers: [registry],
});

const reviewWait = new Histogram({
  name: 'workbench_review_wait_seconds',
  help: 'How long a review waited, from its request to its decision, by outcome: approved, rejected, expired',
  labelNames: ['outcome'] as const,
  buckets: [60, 300, 900, 1800, 3600, 4 * 3600, 12 * 3600, 86400, 3 * 86400, 7 * 86400],
  registers: [registry],
});

const reviewsExpired = new Counter({
  name: 'workbench_reviews_expired_total',
  help: 'Reviews that expired undecided at their due time (onDue fail)',
  registers: [registry],
});

const webhookDeliveries = new Counter({
  name: 'workbench_webhook_deliveries_total',
  help: 'Tries of webhook deliveries by outcome: delivered, failed (each try counts; a failed one is retried)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

const mails = new Counter({
  name: 'workbench_mails_total',
  help: 'Tries of sending a mail by outcome: sent, failed (a failed one is retried by the job queue)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

const rateLimitRefusals = new Counter({
  name: 'workbench_rate_limit_refusals_total',
  help: "Requests refused 429 by a rate limit, by the route's template",
  labelNames: ['route'] as const,
  registers: [registry],
});

/**
 * What an app tells at a scrape, from its database and its memory. Every app of the process is asked; the
 * database's counts (the same database for all of them) are read once, through the first app.
 */
export interface ScrapeSource {
  /** Reviews waiting for a decision, in the whole database. */
  reviewsPending(): Promise<number>;
  /** Jobs waiting to be worked now, by queue, in the whole database. */
  jobsWaiting(): Promise<Map<string, number>>;
  /** How many events this app's reader of the log is behind it. */
  eventsBehind(): Promise<number>;
  /** This app's open live update websockets. */
  webSocketConnections(): number;
  /** Why this app is not ready, as /readyz says it; empty: ready. */
  notReadyReasons(): Promise<string[]>;
}

const sources = new Set<ScrapeSource>();

/** Adds an app to what a scrape asks; returns the way to take it out (the app closes). */
export function addScrapeSource(source: ScrapeSource): () => void {
  sources.add(source);
  return () => sources.delete(source);
}

const firstSource = () => sources.values().next().value;

/** A gauge set at each scrape; left without a value when what it reads cannot answer. */
function scrapedGauge<L extends string>(
  options: { name: string; help: string; labelNames?: readonly L[] },
  read: (gauge: Gauge<L>) => Promise<void>,
) {
  return new Gauge<L>({
    ...options,
    labelNames: options.labelNames ?? [],
    registers: [registry],
    async collect() {
      this.reset();
      await read(this).catch(() => this.reset());
    },
  });
}

scrapedGauge(
  {
    name: 'workbench_reviews_pending',
    help: 'Reviews waiting for a decision, in the whole database',
  },
  async (gauge) => {
    const source = firstSource();
    if (source) gauge.set(await source.reviewsPending());
  },
);

scrapedGauge(
  {
    name: 'workbench_job_queue_depth',
    help: 'Jobs of the durable job queue waiting to be worked now (timers not yet due left out), by queue',
    labelNames: ['queue'] as const,
  },
  async (gauge) => {
    const source = firstSource();
    if (!source) return;
    for (const [queue, waiting] of await source.jobsWaiting()) gauge.set({ queue }, waiting);
  },
);

scrapedGauge(
  {
    name: 'workbench_projection_lag_events',
    help: "Events of the log this process's reader has not delivered yet to its followers (the websockets, the caches)",
  },
  async (gauge) => {
    const behind = await Promise.all([...sources].map((source) => source.eventsBehind()));
    if (behind.length > 0) gauge.set(Math.max(...behind));
  },
);

scrapedGauge(
  {
    name: 'workbench_websocket_connections',
    help: 'Live update websockets open on this process',
  },
  async (gauge) => {
    gauge.set([...sources].reduce((sum, source) => sum + source.webSocketConnections(), 0));
  },
);

let readinessRead: Promise<string[]> | null = null;

/** Why the first app is not ready: read once for the two gauges of one scrape, which collect side by side. */
function notReadyReasons(): Promise<string[]> {
  readinessRead ??= (async () => {
    const source = firstSource();
    if (!source) throw new Error('no app in this process');
    return source.notReadyReasons();
  })().finally(() => {
    readinessRead = null;
  });
  return readinessRead;
}

scrapedGauge(
  {
    name: 'workbench_ready',
    help: 'Whether this process can serve, as GET /readyz answers: 1 ready, 0 not',
  },
  async (gauge) => {
    gauge.set((await notReadyReasons()).length === 0 ? 1 : 0);
  },
);

scrapedGauge(
  {
    name: 'workbench_not_ready_reason',
    help: 'Why this process is not ready, as GET /readyz says: 1 for each reason that holds now',
    labelNames: ['reason'] as const,
  },
  async (gauge) => {
    const reasons = await notReadyReasons();
    for (const reason of NOT_READY_REASONS) gauge.set({ reason }, reasons.includes(reason) ? 1 : 0);
  },
);

subscribe(APPEND_TIMING_CHANNEL, (message) => appendDuration.observe((message as AppendTiming).seconds));

/** How a model call ended: its answer recorded, or why not. */
export type ModelCallOutcome = 'succeeded' | 'failed' | 'stopped' | 'interrupted';

/**
 * A call of a model, begun at `started` (performance.now()), ended now: `modelId` is the server's
 * `provider:name` of the model asked, `provider` what answered it. A call that failed names its error.
 */
export function modelCallMeasured(
  call: { modelId: string; provider: ModelProvider },
  started: number,
  outcome: ModelCallOutcome,
  usage: ModelAnswer['usage'],
  error?: unknown,
): void {
  modelCallEnded({
    provider: parseModelId(call.modelId).provider,
    genAiProvider: genAiProviderName(call.modelId, call.provider.kind),
    model: call.provider.model,
    seconds: (performance.now() - started) / 1000,
    outcome,
    usage,
    errorType: outcome === 'failed' ? errorTypeOf(error, null) : outcome,
  });
}

/** A model call (chat) ended: its duration, its tokens when the provider told them, and its outcome. */
function modelCallEnded(call: {
  provider: string;
  /** The provider as the GenAI conventions name it (gen-ai.ts): the same name as the chat spans'. */
  genAiProvider: string;
  model: string;
  seconds: number;
  outcome: ModelCallOutcome;
  usage: { inputTokens: number; outputTokens: number } | null;
  /** The kind of error it failed with (an error's class or code), when it failed. */
  errorType?: string | undefined;
}): void {
  const gen = {
    gen_ai_operation_name: 'chat',
    gen_ai_provider_name: call.genAiProvider,
    gen_ai_request_model: call.model,
    gen_ai_response_model: call.model,
  };
  // error.type only on a call that did not succeed, as the convention has it.
  const failed = call.outcome === 'succeeded' ? {} : { error_type: call.errorType ?? call.outcome };
  modelCallDuration.observe({ ...gen, ...failed }, call.seconds);
  if (call.usage) {
    tokenUsage.observe({ ...gen, gen_ai_token_type: 'input' }, call.usage.inputTokens);
    tokenUsage.observe({ ...gen, gen_ai_token_type: 'output' }, call.usage.outputTokens);
  }
  modelCalls.inc({ provider: call.provider, model: call.model, outcome: call.outcome });
}

/** A step run of a flow ended. */
export function stepRunEnded(outcome: ModelCallOutcome): void {
  stepRuns.inc({ outcome });
}

/** A command is tried again after a concurrency conflict on its stream. */
export function commandRetried(streamType: string): void {
  commandsRetried.inc({ stream_type: streamType });
}

/** A message went out on a live update websocket. */
export function webSocketMessageSent(): void {
  webSocketMessages.inc();
}

/**
 * A review was decided, or expired at its due time: how long it waited. Called with the review as the
 * command that settled it left it.
 */
export function reviewSettled(review: {
  status: string;
  requestedAt: string;
  decidedAt: string | null;
}): void {
  if (review.decidedAt === null) return;
  if (review.status !== 'approved' && review.status !== 'rejected' && review.status !== 'expired') return;
  const waited = (Date.parse(review.decidedAt) - Date.parse(review.requestedAt)) / 1000;
  if (Number.isFinite(waited)) reviewWait.observe({ outcome: review.status }, Math.max(0, waited));
  if (review.status === 'expired') reviewsExpired.inc();
}

/** A try of a webhook delivery ended. */
export function webhookTried(delivered: boolean): void {
  webhookDeliveries.inc({ outcome: delivered ? 'delivered' : 'failed' });
}

/** A try of sending a mail ended. */
export function mailTried(sent: boolean): void {
  mails.inc({ outcome: sent ? 'sent' : 'failed' });
}

/** A request was refused by a rate limit; `route` is its route's template (never the raw URL). */
export function rateLimitRefused(route: string | undefined): void {
  rateLimitRefusals.inc({ route: route ?? 'unmatched' });
}
