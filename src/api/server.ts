import { EventStore } from '../eventstore';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './database/open-database';

async function main() {
  const config = await loadConfig();
  const database = await openDatabase(config);
  const store = new EventStore(database.sql);
  const app = await buildApp({ config, sql: database.sql, store }, { logger: { level: config.logLevel } });
  const interrupted = await app.crashSweep.run();
  if (interrupted > 0)
    app.log.warn(
      `${interrupted} run(s) and Execute All(s) interrupted by the last shutdown were marked failed`,
    );
  app.crashSweep.start();

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received: stopping, model calls under way get ${config.shutdownGraceMs} ms`);
    // Past the grace, runs cut off are recorded and the app closes within seconds; a hang must not keep it.
    const forced = setTimeout(() => process.exit(1), config.shutdownGraceMs + 15_000);
    forced.unref();
    // The database is closed whatever the app's close met (a connection already lost, say): an embedded
    // PostgreSQL left running would hold DATA_DIR.
    try {
      await app
        .stopGracefully(config.shutdownGraceMs)
        .catch((error) => app.log.error(error, 'the app did not close cleanly'));
      // The last commits' NOTIFY may still wait its turn: sent, other instances need not wait for their poll.
      await store.announced();
      await database.close();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const model = config.geminiApiKey
    ? `Gemini (${config.geminiModel})`
    : 'the offline model (no GEMINI_API_KEY)';
  const db = database.embedded ? `embedded PostgreSQL in ${config.dataDir}/postgres` : 'DATABASE_URL';
  console.log(
    `\nPrompt-flow workbench is running at http://${config.host}:${port}\n  database: ${db}\n  model: ${model}\n`,
  );
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
