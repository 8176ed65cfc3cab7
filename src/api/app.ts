import './http/validation-language';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import type { Sql } from 'postgres';
import type { KeyCheck, resolveProvider } from '../ai';
import type { NewApiKey } from '../domain/api-key';
import type { EventStore } from '../eventstore';
import { apiKeyRoutes } from './api-keys/routes';
import { apiTokenRoutes } from './api-tokens/routes';
import { auditLogPlugin, auditLogRoutes } from './audit-log';
import { auditVerifierRoutes } from './audit-verifier';
import authPlugin, { isApiPath, routePathOf } from './auth/plugin';
import { authRoutes } from './auth/routes';
import commandsPlugin from './commands/plugin';
import { contextRoutes } from './conversation-context/routes';
import datasetsPlugin from './datasets/plugin';
import { datasetRoutes } from './datasets/routes';
import { eventChainRoutes } from './event-chain/routes';
import eventFeedPlugin from './event-feed/plugin';
import { executionHistoryRoutes } from './executions/history-routes';
import executionsPlugin from './executions/plugin';
import { rerunFromStepRoutes } from './executions/rerun-from-step-routes';
import { reviewRoutes } from './executions/review-routes';
import { executionRoutes } from './executions/routes';
import { stepResultRoutes } from './executions/step-result-routes';
import experimentsPlugin from './experiments/plugin';
import { experimentRoutes } from './experiments/routes';
import { aiFlowCreatorRoutes } from './flows/ai-flow-creator-routes';
import { aiWorkflowRoutes } from './flows/ai-workflow-routes';
import { flowExportRoutes } from './flows/export-routes';
import flowsPlugin from './flows/plugin';
import { flowRoutes } from './flows/routes';
import { stepRoutes } from './flows/step-routes';
import { flowVersionRoutes } from './flows/version-routes';
import { boundConnectionsPerClient } from './http/client-connections';
import { answerClientError } from './http/client-errors';
import { handleError, sendProblem } from './http/errors';
import { sharedRateLimits } from './http/rate-limit-store';
import { routeMethods } from './http/route-methods';
import routeSchemas from './http/route-schemas';
import securityHeaders from './http/security-headers';
import idempotencyPlugin from './idempotency/plugin';
import liveUpdatesPlugin from './live-updates/plugin';
import { liveUpdateRoutes } from './live-updates/routes';
import masterModePlugin from './master-mode/plugin';
import { masterModeRoutes } from './master-mode/routes';
import modelsPlugin from './model-calls/plugin';
import { modelRoutes } from './model-calls/routes';
import notificationsPlugin from './notifications/plugin';
import { recommendationRoutes } from './recommendations/routes';
import { logRoutes } from './request-logs/routes';
import type { Clock } from './runtime/clock';
import type { Config } from './runtime/config';
import gracefulStop from './runtime/graceful-stop';
import healthPlugin from './runtime/health';
import { PROJECT_ROOT } from './runtime/project-root';
import serverInstancePlugin from './runtime/server-instance-plugin';
import { suggestionRoutes } from './suggestions/routes';
import metricsPlugin from './telemetry/plugin';
import { metricsRoutes } from './telemetry/routes';
import userRecordsPlugin from './user-records/plugin';
import { userSessionRoutes } from './user-sessions/routes';
import workspacesPlugin from './workspaces/plugin';
import { workspaceRoutes } from './workspaces/routes';
import { webhookRoutes } from './workspaces/webhook-routes';

export const WEB_DIST_DIR = path.join(PROJECT_ROOT, 'dist/web');

export interface AppServices {
  config: Config;
  sql: Sql;
  store: EventStore;
  /** Which model answers a run; the default is own key -> GEMINI_API_KEY -> the offline model. */
  resolveModel?: typeof resolveProvider;
  /** How a new own API key is checked with its provider; the default asks the Gemini API. */
  checkApiKey?: (key: NewApiKey) => Promise<KeyCheck>;
  /** The database's URL for the job queue's own connections (the embedded one's); default: DATABASE_URL. */
  databaseUrl?: string;
  /** This process's clock; the default is the machine's (tests give one that is off). */
  clock?: Clock;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    sql: Sql;
    store: EventStore;
    /**
     * This process's clock, checked against the database's (see src/api/runtime/clock.ts). What several processes
     * must agree on, as when a run counts as abandoned, is read from the database's clock instead.
     */
    clock: Clock;
  }
}

/** Builds the whole server: plugins (external, then app services), then routes, then the SPA. */
export async function buildApp(
  services: AppServices,
  options: {
    logger?: FastifyServerOptions['logger'];
    /** How long a session read is reused within this process (tests widen it to leave timing out). */
    sessionReuseMs?: number;
  } = {},
): Promise<FastifyInstance> {
  // Each request is not worth a log line; errors and warnings are.
  const app = Fastify({
    logger: options.logger ?? false,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 4 * 1024 * 1024,
    // A request whose headers and body have not all arrived within REQUEST_TIMEOUT_MS is answered 408 and
    // closed, checked every second: half-sent requests cannot hold connections (and file descriptors).
    requestTimeout: services.config.requestTimeoutMs,
    http: {
      headersTimeout: services.config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1_000, services.config.requestTimeoutMs),
    },
    // Off unless TRUST_PROXY names the proxy: otherwise any client could claim another address or https.
    trustProxy: services.config.trustProxy,
    // Errors Fastify meets before a route (a path parameter too long, 414) are answered like every other.
    frameworkErrors: handleError,
    // And those Node's HTTP parser meets before Fastify (a header with a control character, a timeout).
    clientErrorHandler: answerClientError,
  });
  boundConnectionsPerClient(app.server, services.config.connectionsPerClient, services.config.trustProxy);
  app.decorate('config', services.config);
  app.decorate('sql', services.sql);
  app.decorate('store', services.store);
  app.decorate('clock', services.clock ?? Date.now);
  const methodsOf = routeMethods(app);
  app.setErrorHandler(handleError);

  await app.register(securityHeaders);
  await app.register(rateLimit, sharedRateLimits(app));
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  // After the websocket plugin (an upgrade it refuses must still be closed by it), before anything that reads.
  await app.register(gracefulStop);
  await app.register(authPlugin, { sessionReuseMs: options.sessionReuseMs });
  await app.register(routeSchemas);
  await app.register(eventFeedPlugin);
  await app.register(commandsPlugin);
  await app.register(notificationsPlugin, { databaseUrl: services.databaseUrl });
  await app.register(flowsPlugin);
  await app.register(workspacesPlugin);
  await app.register(datasetsPlugin);
  await app.register(userRecordsPlugin);
  await app.register(serverInstancePlugin);
  // Before the routes: every keyed write is claimed, by this instance, before its route runs.
  await app.register(idempotencyPlugin);
  await app.register(modelsPlugin, { resolve: services.resolveModel, checkKey: services.checkApiKey });
  await app.register(liveUpdatesPlugin);
  await app.register(executionsPlugin);
  await app.register(masterModePlugin);
  await app.register(experimentsPlugin);
  await app.register(healthPlugin);
  await app.register(metricsPlugin);
  await app.register(auditLogPlugin);

  await app.register(authRoutes);
  await app.register(flowRoutes);
  await app.register(flowExportRoutes);
  await app.register(flowVersionRoutes);
  await app.register(stepRoutes);
  await app.register(executionRoutes);
  await app.register(executionHistoryRoutes);
  await app.register(eventChainRoutes);
  await app.register(auditLogRoutes);
  await app.register(rerunFromStepRoutes);
  await app.register(stepResultRoutes);
  await app.register(reviewRoutes);
  await app.register(logRoutes);
  await app.register(contextRoutes);
  await app.register(liveUpdateRoutes);
  await app.register(apiKeyRoutes);
  await app.register(apiTokenRoutes);
  await app.register(modelRoutes);
  await app.register(aiFlowCreatorRoutes);
  await app.register(suggestionRoutes);
  await app.register(masterModeRoutes);
  await app.register(userSessionRoutes);
  await app.register(aiWorkflowRoutes);
  await app.register(recommendationRoutes);
  await app.register(workspaceRoutes);
  await app.register(webhookRoutes);
  await app.register(datasetRoutes);
  await app.register(experimentRoutes);
  await app.register(auditVerifierRoutes);
  await app.register(metricsRoutes);

  await registerWebApp(app, methodsOf);
  return app;
}

/** Serves the built SPA; any non-API path falls back to index.html so client routes load directly. */
async function registerWebApp(app: FastifyInstance, methodsOf: (path: string) => string[]) {
  const hasBuild = existsSync(path.join(WEB_DIST_DIR, 'index.html'));
  if (hasBuild) {
    await app.register(fastifyStatic, { root: WEB_DIST_DIR, wildcard: false, index: false });
  }
  const indexHtml = hasBuild ? await readFile(path.join(WEB_DIST_DIR, 'index.html'), 'utf8') : null;
  app.setNotFoundHandler((request, reply) => {
    // `/api-keys` is a page of the web app, not a call: only `/api` and `/api/...` are the API.
    const path = routePathOf(request);
    if (isApiPath(path) || request.method !== 'GET') {
      const allowed = isApiPath(path) ? methodsOf(path) : [];
      if (allowed.length > 0) {
        reply.header('allow', allowed.join(', '));
        return sendProblem(
          reply,
          405,
          'method_not_allowed',
          `Không dùng được ${request.method} ở đây; hãy dùng ${allowed.join(', ')}.`,
        );
      }
      return sendProblem(reply, 404, 'not_found', 'Không tìm thấy');
    }
    if (!indexHtml) {
      return reply.status(503).type('text/plain').send('The web app is not built yet: run `npm run build`.');
    }
    return reply.type('text/html').send(indexHtml);
  });
}
