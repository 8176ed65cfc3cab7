import { spawn } from 'node:child_process';
import { chmod, cp, mkdtemp, readFile, readlink, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runningProcess, startEmbeddedPostgres } from '../src/api/database/embedded-postgres';
import { platformBinaries } from '../src/api/database/postgres-processes';

async function query<T>(url: string, run: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return await run(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/**
 * A project cloned into a directory only its owner may enter (root's home, any `mktemp -d`): as root the
 * embedded PostgreSQL must still start there, though the `postgres` user cannot enter it.
 */
describe('the embedded PostgreSQL in a directory only its owner may enter', () => {
  let home = '';

  beforeAll(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'workbench-private-'));
    expect((await stat(home)).mode & 0o777).toBe(0o700);
  });
  afterAll(async () => {
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('creates its cluster there, keeps what was written across a restart', async () => {
    const dataDir = path.join(home, 'data', 'postgres');
    const first = await startEmbeddedPostgres(dataDir);
    try {
      await query(first.url, (sql) =>
        sql`CREATE TABLE kept (note text); INSERT INTO kept VALUES ('here')`.simple(),
      );
    } finally {
      await first.stop();
    }
    const second = await startEmbeddedPostgres(dataDir);
    try {
      expect(await query(second.url, (sql) => sql`SELECT note FROM kept`)).toEqual([{ note: 'here' }]);
    } finally {
      await second.stop();
    }
  });

  it('runs the PostgreSQL programs from there too', async () => {
    const installed = await platformBinaries();
    // bin/, lib/ and share/ of the package, as a clone into the private directory would have them.
    const native = path.dirname(path.dirname(installed.postgres));
    const copy = path.join(home, 'node_modules', 'native');
    await cp(native, copy, { recursive: true, verbatimSymlinks: true });
    const binaries = {
      initdb: path.join(copy, 'bin', path.basename(installed.initdb)),
      postgres: path.join(copy, 'bin', path.basename(installed.postgres)),
    };
    const database = await startEmbeddedPostgres(path.join(home, 'other', 'postgres'), { binaries });
    try {
      expect(await query(database.url, (sql) => sql`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
    } finally {
      await database.stop();
    }

    // The data where anyone may enter, the programs where only their owner may: as root the `postgres` user
    // runs a copy of the programs, made for this start and gone with it.
    const open = await mkdtemp(path.join(tmpdir(), 'workbench-open-'));
    await chmod(open, 0o755);
    try {
      // What a server killed with kill -9 leaves: the copy its PostgreSQL ran from, named beside the cluster.
      const left = await mkdtemp(path.join(tmpdir(), 'workbench-pg-programs-'));
      await writeFile(`${path.join(open, 'postgres')}.programs`, `${left}\n`);
      const elsewhere = await startEmbeddedPostgres(path.join(open, 'postgres'), { binaries });
      await expect(stat(left)).rejects.toMatchObject({ code: 'ENOENT' });
      const asRoot = process.getuid?.() === 0;
      let programs = '';
      try {
        expect(await query(elsewhere.url, (sql) => sql`SELECT 2 AS two`)).toEqual([{ two: 2 }]);
        const pid = (await readFile(path.join(open, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0];
        programs = path.dirname(path.dirname(await readlink(`/proc/${pid}/exe`)));
        if (asRoot) {
          // Run as the `postgres` user, not root, from a copy outside the private directory.
          expect((await stat(path.join(open, 'postgres'))).uid).not.toBe(0);
          expect(programs.startsWith(home)).toBe(false);
        }
      } finally {
        await elsewhere.stop();
      }
      if (asRoot) await expect(stat(programs)).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      await rm(open, { recursive: true, force: true });
    }
  });
});

describe('who owns a running embedded PostgreSQL', () => {
  let dir = '';
  const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'workbench-owner-'));
  });
  afterAll(async () => {
    other.kill('SIGKILL');
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('is told apart from a later process given the same pid by its start time', async () => {
    const dataDir = path.join(dir, 'postgres');
    const ownerFile = `${dataDir}.owner`;
    const first = await startEmbeddedPostgres(dataDir);
    const started = await runningProcess(other.pid!);
    expect(started).not.toBeNull();

    // The owner file names a live process that started when it says: that server owns the cluster.
    await writeFile(ownerFile, `${other.pid} ${started!.startTime}\n`);
    await expect(startEmbeddedPostgres(dataDir)).rejects.toThrow(
      `belongs to the server running as pid ${other.pid}`,
    );

    // The same pid, started at another time: the owner is gone, its PostgreSQL is stopped and started anew.
    await writeFile(ownerFile, `${other.pid} 1\n`);
    const second = await startEmbeddedPostgres(dataDir);
    try {
      expect(await query(second.url, (sql) => sql`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
      const [pid, startTime] = (await readFile(ownerFile, 'utf8')).trim().split(' ');
      expect(Number(pid)).toBe(process.pid);
      expect(startTime).toBe((await runningProcess(process.pid))!.startTime);
    } finally {
      await second.stop();
      await first.stop();
    }
  });
});
