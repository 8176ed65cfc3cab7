import { readFile } from 'node:fs/promises';
import {
  type Exit,
  type Instance,
  type Nginx,
  nginxBinary,
  startInstance,
  startNginx,
} from '../../src/api/cli/cluster-processes';
import { freePort } from '../../src/api/database/embedded-postgres';
import { TEST_POOL_ENV } from './database';
import { withoutDatabaseUrl } from './server-process';
import { TEST_APP_SECRET } from './test-app';

/** A request as nginx's access log has it: which instances it went to, in order (the last one answered). */
export interface ProxiedRequest {
  method: string;
  path: string;
  status: number;
  upstreamPorts: number[];
  /** Each instance's answer, in the same order: 502 when it refused the connection. */
  upstreamStatuses: number[];
}

export interface TestCluster {
  /** nginx, in front of every instance. */
  url: string;
  /** The instances' ports, in order; an instance started again keeps its port. */
  ports: number[];
  /** Instance `index` as running now. */
  instance(index: number): Instance;
  /** What instance `index` has printed, across its restarts. */
  output(index: number): string;
  /** Every request nginx has answered so far, in order. */
  proxied(): Promise<ProxiedRequest[]>;
  /** SIGTERM to instance `index`; its exit. */
  stopInstance(index: number): Promise<Exit>;
  /** SIGKILL to instance `index`; its exit. */
  killInstance(index: number): Promise<Exit>;
  /** Starts instance `index` again on its port and waits until it runs. */
  startInstance(index: number): Promise<Instance>;
  /** nginx, then every instance; one that does not stop within a minute is killed. */
  stop(): Promise<void>;
}

/** Why the cluster tests cannot run here (no nginx), or null; under CI a missing nginx is an error. */
export function missingNginx(): string | null {
  try {
    nginxBinary();
    return null;
  } catch (error) {
    if (process.env.CI === 'true') throw error;
    return (error as Error).message;
  }
}

const LOG_LINE = /"(\S+) (\S+) [^"]*" (\d{3}) \d+ upstream="([^"]*)" upstream_status="([^"]*)"/;

function parseAccessLog(text: string): ProxiedRequest[] {
  return text.split('\n').flatMap((line) => {
    const match = LOG_LINE.exec(line);
    if (!match) return [];
    // "127.0.0.1:5001, 127.0.0.1:5002" when the first did not take the request; "-" when none was asked.
    const upstreamPorts = match[4]!
      .split(', ')
      .map((address) => Number(address.split(':').at(-1)))
      .filter((port) => Number.isInteger(port) && port > 0);
    const upstreamStatuses = match[5]!
      .split(', ')
      .map(Number)
      .filter((status) => Number.isInteger(status));
    return [
      { method: match[1]!, path: match[2]!, status: Number(match[3]), upstreamPorts, upstreamStatuses },
    ];
  });
}

/** Stops a process gracefully, or kills it after `ms`. */
async function stopWithin(instance: Instance, ms: number): Promise<Exit> {
  const timer = setTimeout(() => instance.child.kill('SIGKILL'), ms);
  try {
    return await instance.stop();
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `size` instances of the built server on one database behind nginx, started by the code of `npm run
 * cluster` (src/api/cli/cluster-processes.ts) with the nginx configuration of deploy/nginx.conf.
 */
export async function startCluster(options: {
  databaseUrl: string;
  size?: number;
  env?: Record<string, string>;
}): Promise<TestCluster> {
  const size = options.size ?? 3;
  const env: NodeJS.ProcessEnv = {
    ...withoutDatabaseUrl(process.env),
    DATABASE_URL: options.databaseUrl,
    APP_SECRET: TEST_APP_SECRET,
    ...TEST_POOL_ENV,
    TRUST_PROXY: 'loopback',
    LOG_LEVEL: 'warn',
    GEMINI_API_KEY: '',
    ...options.env,
  };
  const outputs = Array.from({ length: size }, () => '');
  const instances: Instance[] = [];
  let nginx: Nginx | null = null;
  const start = async (index: number, port: number) => {
    const instance = await startInstance({
      port,
      env,
      output: (text) => {
        outputs[index] = (outputs[index]! + text).slice(-50_000);
      },
    });
    instances[index] = instance;
    return instance;
  };
  const stop = async () => {
    await nginx?.stop();
    await Promise.all(instances.map((instance) => stopWithin(instance, 60_000)));
  };
  try {
    const started = await Promise.allSettled(outputs.map((_, index) => start(index, 0)));
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    nginx = await startNginx({ port: await freePort(), ports: instances.map((instance) => instance.port) });
  } catch (error) {
    await stop();
    throw error;
  }
  const ports = instances.map((instance) => instance.port);
  const accessLog = nginx.accessLog;
  return {
    url: nginx.url,
    ports,
    instance: (index) => instances[index]!,
    output: (index) => outputs[index]!,
    proxied: async () => parseAccessLog(await readFile(accessLog, 'utf8').catch(() => '')),
    stopInstance: (index) => instances[index]!.stop(),
    killInstance: (index) => {
      instances[index]!.child.kill('SIGKILL');
      return instances[index]!.exited;
    },
    startInstance: (index) => start(index, ports[index]!),
    stop,
  };
}
