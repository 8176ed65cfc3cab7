import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess } from './support/server-process';

/** The pid and the socket directory of the PostgreSQL running on the data directory (postmaster.pid). */
async function postmasterOf(dataDir: string) {
  const lines = (await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n');
  return { pid: lines[0]!, socketDirectory: lines[4]! };
}

const isGone = (file: string) =>
  stat(file).then(
    () => false,
    (error) => error.code === 'ENOENT',
  );

const postgresOf = (dataDir: string) => {
  try {
    return execFileSync('pgrep', ['-f', `postgres -D ${dataDir}/postgres`], { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
};

describe('after the server is killed without its shutdown', () => {
  let dir = '';
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('npm start on the same DATA_DIR stops the orphaned embedded PostgreSQL and comes up by itself', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'workbench-crash-'));
    await chmod(dir, 0o755);
    const dataDir = path.join(dir, 'data');
    const first = await startServerProcess(null, { DATA_DIR: dataDir });
    const { pid: orphan, socketDirectory: orphanSocketDirectory } = await postmasterOf(dataDir);
    expect(orphanSocketDirectory).toContain(tmpdir());
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    // What the kernel's OOM killer leaves: the server gone, its PostgreSQL still running on the data.
    expect(postgresOf(dataDir)).toContain(orphan);

    server = await startServerProcess(null, { DATA_DIR: dataDir });
    expect((await fetch(`${server.url}/api/auth/user`)).status).toBe(401);
    expect(postgresOf(dataDir)).not.toContain(orphan);
    expect(await isGone(orphanSocketDirectory)).toBe(true);
    const { socketDirectory } = await postmasterOf(dataDir);

    // SIGTERM is the server's graceful stop (it closes the app, then its PostgreSQL), not the embedded
    // PostgreSQL package's own handler, which would stop the database first and exit with the signal.
    const { child } = server;
    await server.stop();
    server = undefined;
    expect(child.exitCode).toBe(0);
    expect(postgresOf(dataDir)).toBe('');
    expect(await isGone(socketDirectory)).toBe(true);
  }, 90_000);
});
