import type { AddressInfo } from 'node:net';
import closeWithGrace from 'close-with-grace';
import { checkEventKey, EventStore, KEY_MISMATCH_MESSAGE } from '../eventstore';
import { buildApp } from './app';
import { openDatabase } from './database/open-database';
import { OFFLINE_MODEL } from './model-calls/model-catalog';
import { type Config, ConfigError, loadConfig } from './runtime/config';
import { stopTracing } from './telemetry/tracing';

async function main() {
  const config = await loadConfig();
  const database = await openDatabase(config);
  // Under another APP_SECRET than the one the records were made with, every record would read as changed:
  // the key check says so at once, and the server does not start on it unless told to.
  if ((await checkEventKey(database.sql)) === 'mismatch') {
    if (!config.allowKeyMismatch) {
      console.error(
        `${KEY_MISMATCH_MESSAGE}. Start with the APP_SECRET (or DATA_DIR's app-secret file) this database was ` +
          'made with; ALLOW_KEY_MISMATCH=1 starts anyway, its records then unverifiable.',
      );
      await database.close();
      process.exit(1);
    }
    console.error(
      `${KEY_MISMATCH_MESSAGE}: starting anyway (ALLOW_KEY_MISMATCH=1); records cannot be verified.`,
    );
  }
  const store = new EventStore(database.sql);
  const app = await buildApp(
    { config, sql: database.sql, store, databaseUrl: database.url },
    { logger: { level: config.logLevel } },
  );
  const interrupted = await app.crashSweep.run();
  if (interrupted > 0)
    app.log.warn(
      `${interrupted} run(s) and Execute All(s) interrupted by the last shutdown were marked failed`,
    );
  app.crashSweep.start();

  // SIGINT, SIGTERM, or an error nothing caught: model calls under way get their grace, then the app and the
  // database close (an embedded PostgreSQL left running would hold DATA_DIR). Past the grace and 15 s more,
  // or at a second signal, the process exits at once; the next start recovers as after a kill -9.
  closeWithGrace(
    {
      delay: config.shutdownGraceMs + 15_000,
      logger: { error: (message: unknown) => app.log.error(message) },
    },
    async ({ signal, err }) => {
      if (err) app.log.error(err, 'stopping after an error nothing caught');
      app.log.info(`${signal ?? 'error'}: stopping, model calls under way get ${config.shutdownGraceMs} ms`);
      try {
        await app
          .stopGracefully(config.shutdownGraceMs)
          .catch((error) => app.log.error(error, 'the app did not close cleanly'));
        // The last commits' NOTIFY may still wait its turn: sent, other instances need not wait for their poll.
        await store.announced();
      } finally {
        await database.close();
        // The spans of the last requests are sent before the process ends.
        await stopTracing().catch((error) => app.log.error(error, 'the last spans could not be sent'));
      }
    },
  );

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  // The default model, as the catalog finds it (an OpenAI-compatible endpoint is asked for its models).
  const defaultModel = await app.models.catalog.defaultId();
  const model =
    defaultModel === OFFLINE_MODEL
      ? 'the offline model (no model configured: see MODELS, OPENAI_BASE_URL, GEMINI_API_KEY)'
      : `${defaultModel} by default`;
  const db = database.embedded ? `embedded PostgreSQL in ${config.dataDir}/postgres` : 'DATABASE_URL';
  console.log(
    `\nPrompt-flow workbench is running at http://${config.host}:${port}\n  database: ${db}\n  model: ${model}\n` +
      `  audit log key: ${app.auditLog.verifierKey} (signing key in ${config.auditSigningKeyFile})\n` +
      metricsLine(app.metricsAddress, config.metrics.serve),
  );
}

/** Where the metrics are scraped, as the start says it; nothing when they are off. */
function metricsLine(address: AddressInfo | null, serve: Config['metrics']['serve']): string {
  if (address) return `  metrics: http://${address.address}:${address.port}/metrics\n`;
  return serve === 'app-port'
    ? '  metrics: /metrics on this port, with Authorization: Bearer <METRICS_TOKEN>\n'
    : '';
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
