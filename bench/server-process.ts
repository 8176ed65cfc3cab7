import { type StdioOptions, spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Sql } from 'postgres';
import { connect } from '../src/api/database/connection';
import { migrate } from '../src/api/database/migrate';

const ROOT = path.resolve(import.meta.dirname, '..');
const CPU_USAGE_PRELOAD = pathToFileURL(path.join(ROOT, 'bench/server-cpu-usage.ts')).href;

/** The server's settings in the bench: the offline (zero-latency) model, no limit on runs or model calls. */
/** The bench servers' APP_SECRET; connections that append carry its event key. */
export const BENCH_APP_SECRET = 'bench-secret-bench-secret-bench-secret-0123456789';

export const serverEnv = (databaseUrl: string) => ({
  DATABASE_URL: databaseUrl,
  PORT: '0',
  LOG_LEVEL: 'warn',
  GEMINI_API_KEY: '',
  MODEL_CALLS_PER_MINUTE: '0',
  // One bench user makes thousands of runs with the offline model.
  FREE_STEP_ALLOWANCE: '1000000000',
  APP_SECRET: BENCH_APP_SECRET,
  // The bench's thousands of sockets all come from this one address.
  CONNECTIONS_PER_CLIENT: '0',
});

/** Node on `args` (a script of this repository and what goes before it), through tsx, from the repository's root. */
function spawnScript(args: string[], env: Record<string, string>, stdio: StdioOptions, node: string[] = []) {
  return spawn(process.execPath, [...node, '--import', 'tsx', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio,
  });
}

/**
 * A node process of this repository; with `cpuUsage`, its CPU time can be read over IPC; `node`: more
 * options for node itself (e.g. `--cpu-prof`).
 */
export function startProcess(
  args: string[],
  env: Record<string, string>,
  options: { cpuUsage?: boolean; node?: string[] } = {},
) {
  const preload = options.cpuUsage ? ['--import', CPU_USAGE_PRELOAD] : [];
  const stdio: StdioOptions = options.cpuUsage
    ? ['ignore', 'pipe', 'pipe', 'ipc']
    : ['ignore', 'pipe', 'pipe'];
  const child = spawnScript([...preload, ...args], env, stdio, options.node);
  let output = '';
  const url = new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    // `BENCH_SERVER_LOG=<file>`: everything the process prints (a server's warnings) appended to the file.
    if (process.env.BENCH_SERVER_LOG) {
      const tee = (chunk: Buffer) => appendFileSync(process.env.BENCH_SERVER_LOG!, chunk);
      child.stdout!.on('data', tee);
      child.stderr!.on('data', tee);
    }
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
  return {
    url,
    /** The process's CPU time so far (user + system), in ms. */
    cpuMs: () =>
      new Promise<number>((resolve) => {
        child.once('message', (usage: NodeJS.CpuUsage) => resolve((usage.user + usage.system) / 1000));
        child.send('cpu-usage');
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Runs a node script of this repository to its end; its standard output, or an error with all it printed. */
export function runScript(args: string[], env: Record<string, string>): Promise<string> {
  const child = spawnScript(args, env, ['ignore', 'pipe', 'pipe']);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve(stdout)
        : reject(new Error(`${args.join(' ')} exited with ${code}: ${stdout}${stderr}`)),
    );
  });
}

/**
 * A new database made on the administrator's connection `admin` (whose URL is `adminUrl`) and migrated, for
 * one run of a script; its URL. The caller drops it when done (`DROP DATABASE ... WITH (FORCE)`).
 */
export async function migratedDatabase(admin: Sql, adminUrl: string, name: string): Promise<string> {
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const migrating = connect(url.toString(), { appSecret: BENCH_APP_SECRET });
  await migrate(migrating);
  await migrating.end();
  return url.toString();
}
