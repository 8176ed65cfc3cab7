import path from 'node:path';
import { freePort, startEmbeddedPostgres } from '../database/embedded-postgres';
import { ConfigError, loadConfig } from '../runtime/config';
import { type Instance, type Nginx, startInstance, startNginx } from './cluster-processes';

/**
 * `npm run cluster -- [N]`: N (default 3) instances of the built server behind nginx on PORT, sharing one
 * PostgreSQL (DATABASE_URL, else one embedded PostgreSQL in DATA_DIR/postgres started here) and one
 * APP_SECRET. The instances listen on PORT+1..PORT+N (free ports when PORT is 0); one that exits unexpectedly
 * is started again. SIGINT or SIGTERM stops nginx, then the instances (each gracefully), then the database.
 * With METRICS=true and METRICS_PORT, each instance serves its metrics on a port of its own,
 * METRICS_PORT..METRICS_PORT+N-1 (free ones when METRICS_PORT is 0), printed at start: a scrape target is an
 * instance, never nginx.
 */

const MAX_INSTANCES = 16;

function instanceCount(argument: string | undefined): number {
  const count = Number(argument ?? 3);
  if (!Number.isInteger(count) || count < 1 || count > MAX_INSTANCES)
    throw new ConfigError(`usage: npm run cluster -- [N]: N instances, 1 to ${MAX_INSTANCES} (default 3)`);
  return count;
}

/** Prints a child's output with its name before every line that is not blank. */
const labelled = (label: string) => (text: string) => {
  for (const line of text.split('\n')) if (line.trim() !== '') console.log(`${label} ${line}`);
};

async function main() {
  const count = instanceCount(process.argv[2]);
  const config = await loadConfig();
  const embedded = config.databaseUrl
    ? null
    : await startEmbeddedPostgres(path.join(config.dataDir, 'postgres'), { log: () => {} });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: config.databaseUrl ?? embedded!.url,
    APP_SECRET: config.appSecret,
    TRUST_PROXY: 'loopback',
  };

  // Each instance's own metrics port, kept when it is started again.
  const { metrics } = config;
  const metricsPorts =
    metrics.serve === 'own-port'
      ? await Promise.all(
          Array.from({ length: count }, async (_, index) =>
            metrics.port === 0 ? await freePort() : metrics.port + index,
          ),
        )
      : [];

  let stopping = false;
  const instances: (Instance | null)[] = Array.from({ length: count }, () => null);
  let nginx: Nginx | null = null;

  const start = async (index: number, port: number): Promise<Instance> => {
    const own = metricsPorts[index] === undefined ? {} : { METRICS_PORT: String(metricsPorts[index]) };
    const instance = await startInstance({
      port,
      env: { ...env, ...own },
      output: labelled(`[instance ${index + 1}]`),
    });
    // Started again while the cluster was stopping: it stops too.
    if (stopping) void instance.stop();
    instances[index] = instance;
    void instance.exited.then(({ code, signal }) => {
      instances[index] = null;
      if (stopping) return;
      console.error(`[cluster] instance ${index + 1} exited (${signal ?? code}); starting it again`);
      void restart(index, instance.port);
    });
    return instance;
  };
  const restart = async (index: number, port: number) => {
    for (let attempt = 1; !stopping; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(30_000, 1_000 * attempt)));
      if (stopping) return;
      try {
        await start(index, port);
        return;
      } catch (error) {
        console.error(`[cluster] instance ${index + 1} did not start again: ${(error as Error).message}`);
      }
    }
  };

  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`[cluster] ${signal}: stopping nginx, then the instances, then the database`);
    await nginx?.stop();
    await Promise.all(instances.map((instance) => instance?.stop()));
    await embedded?.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    const starts = await Promise.allSettled(
      instances.map((_, index) => start(index, config.port === 0 ? 0 : config.port + index + 1)),
    );
    const failed = starts.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    const started = instances.filter((instance) => instance !== null);
    nginx = await startNginx({
      host: config.host,
      port: config.port || (await freePort()),
      ports: started.map((instance) => instance.port),
      output: labelled('[nginx]'),
    });
    void nginx.exited.then(({ code, signal }) => {
      if (stopping) return;
      console.error(`[cluster] nginx exited (${signal ?? code})`);
      void shutdown('nginx exit');
    });
  } catch (error) {
    stopping = true;
    await Promise.all(instances.map((instance) => instance?.stop()));
    await embedded?.stop();
    throw error;
  }
  const database = embedded ? `embedded PostgreSQL in ${config.dataDir}/postgres` : 'DATABASE_URL';
  const scrapes =
    metrics.serve === 'own-port'
      ? `  metrics: ${metricsPorts.map((port) => `http://${metrics.host}:${port}/metrics`).join(', ')}\n`
      : metrics.serve === 'app-port'
        ? "  metrics: /metrics of each instance's port, with Authorization: Bearer <METRICS_TOKEN>\n"
        : '';
  console.log(
    `\nPrompt-flow workbench cluster is running at ${nginx.url}\n` +
      `  ${count} instance(s): ${instances.map((instance) => instance?.url).join(', ')}\n` +
      `  nginx: ${nginx.prefix} (nginx.conf, logs/)\n  database: ${database}\n${scrapes}`,
  );
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
