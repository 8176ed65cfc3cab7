import { chmod, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedDatabaseOwner } from '../src/api/cli/embedded-database-owner';
import { connect } from '../src/api/database/connection';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../src/api/database/embedded-postgres';

/** The address the server sees the connection on: null over a Unix socket. */
async function serverAddress(url: string, options: postgres.Options<Record<string, never>> = {}) {
  const sql = postgres(url, { max: 1, onnotice: () => {}, ...options });
  try {
    const [row] = await sql<{ address: string | null }[]>`SELECT host(inet_server_addr()) AS address`;
    return row!.address;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

describe('the embedded PostgreSQL’s Unix socket', () => {
  let dir = '';
  let dataDir = '';
  let database: EmbeddedDatabase;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'workbench-socket-'));
    // As root the cluster runs as the `postgres` user, which must reach the directory.
    await chmod(dir, 0o755);
    // Deeper than a socket path may be: the socket cannot live in the data directory.
    dataDir = path.join(dir, 'a-data-directory-deep-enough'.repeat(4));
    await mkdir(dataDir, { mode: 0o755 });
    database = await startEmbeddedPostgres(path.join(dataDir, 'postgres'), { persistent: false });
  }, 120_000);
  afterAll(async () => {
    await database?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('is in a short directory of its own, mode 0700, and takes connections with the password', async () => {
    expect(path.join(dataDir, 'postgres').length).toBeGreaterThan(107);
    const socketDirectory = database.socketDirectory!;
    expect(socketDirectory).toBeTruthy();
    expect(path.dirname(socketDirectory)).toBe(tmpdir());
    expect((await stat(socketDirectory)).mode & 0o777).toBe(0o700);
    const port = Number(new URL(database.url).port);
    expect((await stat(path.join(socketDirectory, `.s.PGSQL.${port}`))).isSocket()).toBe(true);

    expect(await serverAddress(database.url, { host: socketDirectory })).toBeNull();
    const wrongPassword = new URL(database.url);
    wrongPassword.password = 'not-the-password';
    await expect(serverAddress(wrongPassword.toString(), { host: socketDirectory })).rejects.toMatchObject({
      code: '28P01',
    });
  });

  it('is reached from a DATABASE_URL naming its directory as libpq does (?host=/directory)', async () => {
    const url = new URL(database.url);
    url.searchParams.set('host', database.socketDirectory!);
    const sql = connect(url.toString(), { max: 1 });
    try {
      const [row] = await sql<{ address: string | null; one: number }[]>`
        SELECT host(inet_server_addr()) AS address, 1 AS one`;
      expect(row).toEqual({ address: null, one: 1 });
    } finally {
      await sql.end({ timeout: 5 });
    }
  });

  it('leaves TCP on 127.0.0.1 to other processes, which find its port as before', async () => {
    expect(await serverAddress(database.url)).toBe('127.0.0.1');
    expect(await embeddedDatabaseOwner(dataDir)).toMatchObject({ port: Number(new URL(database.url).port) });
  });

  it('is removed with the database', async () => {
    const socketDirectory = database.socketDirectory!;
    await database.stop();
    await expect(stat(socketDirectory)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
