/**
 * Loaded before the server (`node --import ./dist/server/telemetry.js dist/server/server.js`): starts tracing
 * when the OTEL_* variables ask for it, before node:http and Fastify are first imported, so that their
 * instrumentations see them. Without those variables it loads nothing more.
 */
import { tracingCostWarning, tracingWanted } from './settings';

if (tracingWanted(process.env)) {
  const { startTracing } = await import('./tracing');
  await startTracing(process.env);
  const warning = tracingCostWarning(process.version);
  if (warning) console.warn(warning);
}
