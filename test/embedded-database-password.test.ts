import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptsPassword, embeddedPasswordFile } from '../src/api/database/embedded-postgres';
import { openDatabase } from '../src/api/database/open-database';
import { TEST_APP_SECRET } from './support/database';

/** Whether the embedded database at `url` lets the superuser in with `password` instead of the URL's. */
function accepts(url: string, password: string): Promise<boolean> {
  const other = new URL(url);
  other.password = password;
  return acceptsPassword(other.toString());
}

describe('the embedded PostgreSQL password', () => {
  let dir = '';
  let dataDir = '';
  let passwordFile = '';
  const open = () => openDatabase({ databaseUrl: undefined, dataDir, appSecret: TEST_APP_SECRET });

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'workbench-password-'));
    // As root the cluster runs as the `postgres` user, which must reach the directory.
    await chmod(dir, 0o755);
    dataDir = path.join(dir, 'data');
    passwordFile = embeddedPasswordFile(path.join(dataDir, 'postgres'));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('is generated once into DATA_DIR/postgres.password (mode 0600), and the fixed one is refused', async () => {
    const database = await open();
    try {
      expect(passwordFile).toBe(path.join(dataDir, 'postgres.password'));
      expect((await stat(passwordFile)).mode & 0o777).toBe(0o600);
      const password = (await readFile(passwordFile, 'utf8')).trim();
      expect(password).not.toBe('postgres');
      expect(password.length).toBeGreaterThanOrEqual(32);
      expect(new URL(database.url).password).toBe(password);
      // The server's own connections go over the embedded PostgreSQL's Unix socket (no server address).
      expect(await database.sql`SELECT host(inet_server_addr()) AS address`).toEqual([{ address: null }]);
      expect(await database.sql`SELECT 1 AS one`).toEqual([{ one: 1 }]);
      expect(await accepts(database.url, 'postgres')).toBe(false);
      await database.sql`CREATE TABLE kept (note text)`;
      await database.sql`INSERT INTO kept VALUES ('still here')`;
    } finally {
      await database.close();
    }

    const again = await open();
    try {
      expect(new URL(again.url).password).toBe((await readFile(passwordFile, 'utf8')).trim());
      expect(await again.sql`SELECT note FROM kept`).toEqual([{ note: 'still here' }]);
    } finally {
      await again.close();
    }
  }, 120_000);

  it('moves a cluster made with the old fixed password to a generated one, keeping its data', async () => {
    // What an older version left: the role's password 'postgres' and no password file.
    const before = await open();
    await before.sql`ALTER ROLE postgres PASSWORD 'postgres'`;
    await before.close();
    await rm(passwordFile);

    const database = await open();
    try {
      const password = (await readFile(passwordFile, 'utf8')).trim();
      expect(password).not.toBe('postgres');
      expect((await stat(passwordFile)).mode & 0o777).toBe(0o600);
      expect(new URL(database.url).password).toBe(password);
      expect(await database.sql`SELECT note FROM kept`).toEqual([{ note: 'still here' }]);
      expect(await accepts(database.url, 'postgres')).toBe(false);
    } finally {
      await database.close();
    }
  }, 120_000);

  it('refuses to start on a password file that is not the cluster’s, and leaves no PostgreSQL running', async () => {
    const kept = await readFile(passwordFile, 'utf8');
    await writeFile(passwordFile, 'not-this-clusters-password-at-all\n');
    try {
      await expect(open()).rejects.toThrow(/refuses the password in .*postgres\.password/);
      expect(await stat(path.join(dataDir, 'postgres', 'postmaster.pid')).catch(() => null)).toBeNull();
    } finally {
      await writeFile(passwordFile, kept);
    }
    const database = await open();
    await database.close();
  }, 120_000);
});
