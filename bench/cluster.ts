import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import {
  BUILT_SERVER,
  type Instance,
  type Nginx,
  nginxBinary,
  startInstance,
  startNginx,
} from '../src/api/cli/cluster-processes';
import { freePort } from '../src/api/database/embedded-postgres';
import { createFlows, measurePush, type Row, round, runCommands, serverPushTarget, signUp } from './load';

// The built server as N instances on one database behind nginx (deploy/nginx.conf), as it is deployed.

/** Why the cluster figures cannot be measured here, or null. */
export function clusterSkipped(): string | null {
  if (process.env.BENCH_CLUSTER === '0') return 'BENCH_CLUSTER=0';
  if (!existsSync(BUILT_SERVER)) return `${BUILT_SERVER} is missing: run \`npm run build\` first`;
  try {
    nginxBinary();
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

interface Cluster {
  url: string;
  ports: number[];
  accessLog: string;
}

/** Stops a process gracefully, or kills it after 30 s. */
async function stopWithin(instance: Instance) {
  const timer = setTimeout(() => instance.child.kill('SIGKILL'), 30_000);
  try {
    await instance.stop();
  } finally {
    clearTimeout(timer);
  }
}

/** `size` instances and nginx for the time of `use`; every process is stopped after it, however it ends. */
async function withCluster<T>(databaseUrl: string, size: number, use: (cluster: Cluster) => Promise<T>) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    APP_SECRET: 'bench-secret-bench-secret-bench-secret-0123456789',
    TRUST_PROXY: 'loopback',
    LOG_LEVEL: 'warn',
    GEMINI_API_KEY: '',
    MODEL_CALLS_PER_MINUTE: '0',
    FREE_STEP_ALLOWANCE: '1000000000',
  };
  const instances: Instance[] = [];
  let nginx: Nginx | null = null;
  try {
    const started = await Promise.allSettled(
      Array.from({ length: size }, () => startInstance({ port: 0, env })),
    );
    for (const result of started) if (result.status === 'fulfilled') instances.push(result.value);
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    const ports = instances.map((instance) => instance.port);
    nginx = await startNginx({ port: await freePort(), ports });
    return await use({ url: nginx.url, ports, accessLog: nginx.accessLog });
  } finally {
    await nginx?.stop();
    await Promise.all(instances.map(stopWithin));
  }
}

/** Commands per second: 32 clients starting an execution and running its step, as the single-server figure. */
async function commandsPerSecond(url: string, seconds: number) {
  const cookie = await signUp(url);
  const flows = await createFlows(url, cookie, 32);
  const load = await runCommands(url, cookie, flows, seconds);
  const commands = load.startLatencies.length + load.runLatencies.length;
  return { cookie, flows, commands, perSecond: commands / load.seconds };
}

/** How many websockets nginx sent to each instance, from its access log (written as each socket closes). */
async function socketsPerInstance(cluster: Cluster, sockets: number) {
  const deadline = performance.now() + 5_000;
  for (;;) {
    const log = await readFile(cluster.accessLog, 'utf8').catch(() => '');
    const upstreams = [...log.matchAll(/"GET \/api\/ws [^"]*" 101 \d+ upstream="[^"]*:(\d+)"/g)];
    const counts = cluster.ports.map((port) => upstreams.filter((m) => Number(m[1]) === port).length);
    if (counts.reduce((sum, n) => sum + n, 0) >= sockets || performance.now() > deadline) return counts;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Through nginx: commands per second with one and with three instances, the same load for the same time; and
 * push with `sockets` sockets spread by nginx over three instances, commands going round robin.
 */
export async function benchCluster(fresh: () => Promise<string>, seconds: number, sockets: number) {
  const one = await withCluster(await fresh(), 1, (cluster) => commandsPerSecond(cluster.url, seconds));
  const three = await withCluster(await fresh(), 3, async (cluster) => {
    const load = await commandsPerSecond(cluster.url, seconds);
    const push = await measurePush(await serverPushTarget(cluster.url, load.cookie, load.flows[1]!), sockets);
    const perInstance = (await socketsPerInstance(cluster, sockets)).join('/');
    return { ...load, push: { ...push, perInstance } };
  });
  const ratio = round(three.perSecond / one.perSecond, 2);
  const push = three.push;
  const results = {
    commands: {
      clients: 32,
      seconds,
      oneInstance: { commands: one.commands, perSecond: round(one.perSecond) },
      threeInstances: { commands: three.commands, perSecond: round(three.perSecond) },
      ratio,
    },
    push,
  };
  const rows: Row[] = [
    {
      figure: 'cluster: commands/s through nginx, 32 clients (start + step run): 1 vs 3 instances',
      value: `${Math.round(one.perSecond)} / ${Math.round(three.perSecond)} = ${ratio}x`,
      target: 'report',
      met: null,
    },
    {
      figure: `cluster: push, ${sockets} sockets over 3 instances via nginx: command sent -> event received p99`,
      value:
        `${push.p99} ms (p50 ${push.p50}), missed ${push.missed}, twice ${push.duplicated}; ` +
        `sockets per instance ${push.perInstance}`,
      target: '<= 50 ms, each event once',
      met: push.p99 <= 50 && push.missed === 0 && push.duplicated === 0,
    },
  ];
  return { rows, results };
}
