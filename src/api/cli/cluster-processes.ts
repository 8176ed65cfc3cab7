import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../runtime/project-root';

/**
 * The processes of a cluster: instances of the built server behind one nginx, started the same way by
 * `npm run cluster` and by the cluster tests. deploy/nginx.conf is the one nginx configuration; it is
 * rendered here with the actual ports and with paths under a directory of its own.
 */

export const BUILT_SERVER = path.join(PROJECT_ROOT, 'dist/server/server.js');
/** Loaded first (`--import`): starts tracing when the OTEL_* variables ask for it (see telemetry/register.ts). */
export const BUILT_TELEMETRY = path.join(PROJECT_ROOT, 'dist/server/telemetry.js');
export const NGINX_TEMPLATE = path.join(PROJECT_ROOT, 'deploy/nginx.conf');

const START_TIMEOUT_MS = 60_000;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Instance {
  port: number;
  url: string;
  child: ChildProcess;
  /** When the process has exited, however. */
  exited: Promise<Exit>;
  /** SIGTERM (a graceful stop), then its exit once it has ended its work. */
  stop(): Promise<Exit>;
}

const exitOf = (child: ChildProcess): Promise<Exit> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null)
      return resolve({ code: child.exitCode, signal: child.signalCode });
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });

/** Sends a signal unless the process has already exited, then waits for its exit. */
function signalAndWait(child: ChildProcess, exited: Promise<Exit>, signal: NodeJS.Signals) {
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  return exited;
}

/**
 * Starts `node --import dist/server/telemetry.js dist/server/server.js` on 127.0.0.1:`port` (0: a free one) with `env` and waits until it
 * says it is running. `output` gets everything it prints.
 */
export async function startInstance(options: {
  port: number;
  env: NodeJS.ProcessEnv;
  output?: (text: string) => void;
}): Promise<Instance> {
  if (!existsSync(BUILT_SERVER)) throw new Error(`${BUILT_SERVER} is missing: run \`npm run build\` first`);
  const child = spawn(process.execPath, ['--import', BUILT_TELEMETRY, BUILT_SERVER], {
    cwd: PROJECT_ROOT,
    env: { ...options.env, PORT: String(options.port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = exitOf(child);
  let printed = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the instance on port ${options.port} did not start:\n${printed}`));
    }, START_TIMEOUT_MS);
    const read = (chunk: Buffer) => {
      const text = chunk.toString();
      options.output?.(text);
      if (printed.length < 100_000) printed += text;
      const running = /running at (http:\/\/\S+)/.exec(printed);
      if (running) {
        clearTimeout(timer);
        resolve(running[1]!);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`the instance on port ${options.port} exited (${signal ?? code}):\n${printed}`));
    });
  });
  return {
    port: Number(new URL(url).port),
    url,
    child,
    exited,
    stop: () => signalAndWait(child, exited, 'SIGTERM'),
  };
}

/** NGINX_BIN, else Debian's /usr/sbin/nginx; a clear error when there is none. */
export function nginxBinary(env: NodeJS.ProcessEnv = process.env): string {
  const bin = env.NGINX_BIN || '/usr/sbin/nginx';
  if (!existsSync(bin))
    throw new Error(
      `nginx is not installed (${bin} is missing): install Debian's nginx (apt-get install -y nginx), ` +
        'or set NGINX_BIN to an nginx binary.',
    );
  return bin;
}

/** Replaces the one match of `pattern` in `text`; a template that no longer has it is an error. */
function replaceOnce(text: string, pattern: RegExp, replacement: (match: RegExpExecArray) => string) {
  const matches = [...text.matchAll(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`))];
  if (matches.length !== 1)
    throw new Error(`deploy/nginx.conf: expected one ${pattern} but found ${matches.length}`);
  const match = matches[0]!;
  return text.slice(0, match.index) + replacement(match) + text.slice(match.index + match[0].length);
}

/**
 * deploy/nginx.conf for a cluster: nginx listening on `listen` (host:port), the upstream's servers on
 * 127.0.0.1 at `ports` (the template's parameters kept), and the pid file, logs and temporary files under
 * `prefix`, so nginx runs without root.
 */
export function renderNginxConfig(
  template: string,
  options: { listen: string; ports: number[]; prefix: string },
): string {
  const { prefix } = options;
  let config = replaceOnce(template, /^(\s*)listen\s+[^;]+;/m, (m) => `${m[1]}listen ${options.listen};`);
  config = replaceOnce(config, /^\s*upstream workbench \{[^}]*\}/m, (m) => {
    const servers = [...m[0].matchAll(/^(\s*)server\s+\S+?(\s[^;]*)?;\n/gm)];
    const [first] = servers;
    if (!first) throw new Error('deploy/nginx.conf: the upstream workbench has no server');
    const lines = options.ports.map((port) => `${first[1]}server 127.0.0.1:${port}${first[2] ?? ''};\n`);
    const start = first.index;
    const last = servers.at(-1)!;
    const end = last.index + last[0].length;
    return m[0].slice(0, start) + lines.join('') + m[0].slice(end);
  });
  config = replaceOnce(config, /^(\s*pid\s+)[^;]+;/m, (m) => `${m[1]}${prefix}/nginx.pid;`);
  config = replaceOnce(config, /^(\s*error_log\s+)\S+?(\s[^;]*)?;/m, (m) => {
    return `${m[1]}${prefix}/logs/error.log${m[2] ?? ''};`;
  });
  config = replaceOnce(config, /^(\s*access_log\s+)\S+/m, (m) => `${m[1]}${prefix}/logs/access.log`);
  // The compiled-in temporary directories (/var/lib/nginx) belong to root.
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((kind) => `    ${kind}_temp_path ${prefix}/temp/${kind};\n`)
    .join('');
  return replaceOnce(config, /^http \{\n/m, (m) => `${m[0]}${temp}`);
}

export interface Nginx {
  url: string;
  /** Its directory: nginx.conf, logs/access.log, logs/error.log. */
  prefix: string;
  accessLog: string;
  child: ChildProcess;
  exited: Promise<Exit>;
  /** Stops nginx (its fast shutdown: open websockets are cut, and the clients reconnect) and removes `prefix`. */
  stop(): Promise<void>;
}

/**
 * Starts nginx in the foreground as a child process, from deploy/nginx.conf rendered into a new directory:
 * listening on `host`:`port` in front of the instances at `ports`. Waits until it accepts connections.
 */
export async function startNginx(options: {
  host?: string;
  port: number;
  ports: number[];
  output?: (text: string) => void;
}): Promise<Nginx> {
  const bin = nginxBinary();
  const host = options.host ?? '127.0.0.1';
  const prefix = await mkdtemp(path.join(tmpdir(), 'workbench-nginx-'));
  // Under root nginx's workers run as `nobody`, and must reach the temporary directories nginx makes here.
  await chmod(prefix, 0o755);
  await mkdir(path.join(prefix, 'logs'));
  await mkdir(path.join(prefix, 'temp'));
  const listen = `${host.includes(':') ? `[${host}]` : host}:${options.port}`;
  const config = path.join(prefix, 'nginx.conf');
  await writeFile(
    config,
    renderNginxConfig(await readFile(NGINX_TEMPLATE, 'utf8'), { listen, ports: options.ports, prefix }),
  );
  const child = spawn(
    bin,
    ['-p', `${prefix}/`, '-c', config, '-e', path.join(prefix, 'logs/error.log'), '-g', 'daemon off;'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = exitOf(child);
  let printed = '';
  const read = (chunk: Buffer) => {
    options.output?.(chunk.toString());
    printed += chunk.toString();
  };
  child.stdout!.on('data', read);
  child.stderr!.on('data', read);
  const stop = async () => {
    await signalAndWait(child, exited, 'SIGTERM');
    await rm(prefix, { recursive: true, force: true });
  };
  // nginx writes its pid file once its sockets listen.
  const pidFile = path.join(prefix, 'nginx.pid');
  const deadline = Date.now() + START_TIMEOUT_MS;
  while ((await readFile(pidFile, 'utf8').catch(() => '')).trim() !== String(child.pid)) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      const errors = await readFile(path.join(prefix, 'logs/error.log'), 'utf8').catch(() => '');
      await stop();
      throw new Error(`nginx did not start:\n${printed}${errors}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `http://${listen}`,
    prefix,
    accessLog: path.join(prefix, 'logs/access.log'),
    child,
    exited,
    stop,
  };
}
