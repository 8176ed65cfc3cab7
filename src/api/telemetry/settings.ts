/**
 * The switches of tracing, all standard OpenTelemetry variables: read by the process that starts the SDK
 * (register.ts) and by the product's own spans alike.
 */

const isTrue = (value: string | undefined) => value?.trim().toLowerCase() === 'true';

/**
 * Whether this process exports traces: an OTLP endpoint (for all signals or for traces) or a traces exporter
 * is named, and the SDK is not disabled. Off by default: nothing is loaded or sent.
 */
export function tracingWanted(env: NodeJS.ProcessEnv): boolean {
  if (isTrue(env.OTEL_SDK_DISABLED)) return false;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim();
  if (exporter === 'none') return false;
  return Boolean(
    env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || exporter,
  );
}

/**
 * Whether prompts and answers go into the spans' `gen_ai.client.inference.operation.details` events. Never
 * by default: a trace backend is no place for what users write unless its operator says so.
 */
export function capturesMessageContent(env: NodeJS.ProcessEnv): boolean {
  return isTrue(env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT);
}

/** The service's name in traces unless OTEL_SERVICE_NAME (or OTEL_RESOURCE_ATTRIBUTES) names another. */
export const SERVICE_NAME = 'prompt-flow-workbench';

/**
 * OTEL_SEMCONV_STABILITY_OPT_IN with `gen_ai_latest_experimental` added: the GenAI spans follow the latest
 * experimental conventions (see GEN_AI_SEMCONV_VERSION), and instrumentations that read the switch do too.
 */
export function withGenAiOptIn(value: string | undefined): string {
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  return [...new Set([...entries, 'gen_ai_latest_experimental'])].join(',');
}

/**
 * What a traced process on `nodeVersion` is told at start, or null: on Node before 22 OpenTelemetry's context
 * rides on async hooks, a callback for every promise, and a traced run costs a fifth to a third more CPU
 * (bench/README.md); from Node 24 the async context frame carries it at next to no cost.
 */
export function tracingCostWarning(nodeVersion: string): string | null {
  const major = Number(/^v?(\d+)/.exec(nodeVersion)?.[1]);
  if (!Number.isFinite(major) || major >= 22) return null;
  return (
    `tracing on Node ${nodeVersion}: its context rides on async hooks here, and a traced run takes about a ` +
    'quarter more CPU; Node 24 or later carries it at next to no cost'
  );
}
