import type { NodeSDK } from '@opentelemetry/sdk-node';
import { SERVICE_NAME, tracingWanted, withGenAiOptIn } from './settings';

/**
 * Starts the OpenTelemetry Node SDK when tracing is wanted (see tracingWanted), else does nothing and loads
 * nothing. The SDK reads the standard OTEL_* variables itself (endpoint, protocol, headers, sampler, resource);
 * only traces are exported: no metrics (those are Prometheus's) and no logs. Instrumented: node:http (a server
 * span per request, a client span per outgoing request), undici (the providers' and webhooks' fetch calls),
 * and Fastify (@fastify/otel, registered on the app as it is created) so each server span is named by its
 * route's template, `GET /api/executions/:id`, never by the URL with its ids.
 *
 * Must run before node:http and Fastify are first imported: the server is started with
 * `node --import ./dist/server/telemetry.js dist/server/server.js`.
 */
export async function startTracing(env: NodeJS.ProcessEnv = process.env): Promise<NodeSDK | null> {
  if (!tracingWanted(env)) return null;
  env.OTEL_SERVICE_NAME ||= SERVICE_NAME;
  env.OTEL_SEMCONV_STABILITY_OPT_IN = withGenAiOptIn(env.OTEL_SEMCONV_STABILITY_OPT_IN);
  // Loaded only now: a server without tracing never reads the SDK.
  const [{ NodeSDK }, { HttpInstrumentation }, { UndiciInstrumentation }, { default: FastifyOtel }] =
    await Promise.all([
      import('@opentelemetry/sdk-node'),
      import('@opentelemetry/instrumentation-http'),
      import('@opentelemetry/instrumentation-undici'),
      import('@fastify/otel'),
    ]);
  const sdk = new NodeSDK({
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      // The exporter's own requests are not traced: the SDK suppresses tracing while it exports.
      new HttpInstrumentation(),
      new UndiciInstrumentation(),
      // It names the server span by its route; its own request span is kept, no span per hook or handler.
      new FastifyOtel({
        registerOnInitialization: true,
        instrumentHooks: false,
        instrumentHandler: false,
        // An error's message may quote what a user wrote: a failed request has its status, not its exception.
        recordExceptions: false,
      }),
    ],
  });
  sdk.start();
  return sdk;
}

/**
 * Sends the spans not yet exported and stops the SDK: the last step of a graceful stop. Nothing when tracing
 * is off (the global provider is then the API's no-op one).
 */
export async function stopTracing(): Promise<void> {
  const { trace } = await import('@opentelemetry/api');
  const global = trace.getTracerProvider() as { getDelegate?: () => unknown };
  const provider = (global.getDelegate?.() ?? global) as { shutdown?: () => Promise<void> };
  await provider.shutdown?.();
}
