import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/database';

/**
 * The database driver, as patched (patches/postgres+3.4.9.patch), lives through a connection ended under a
 * write it holds: the statement waiting on it fails as CONNECTION_CLOSED, and the pool serves again. Without
 * the patch the process ends with "Cannot read properties of null (reading 'write')" thrown from a timer,
 * which nothing in the app could catch: so the cases run in a process of their own.
 */

const script = fileURLToPath(new URL('./support/connection-close-race.mjs', import.meta.url));
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

describe('a connection ended under a write the driver holds', () => {
  it('fails what waits on it as CONNECTION_CLOSED, keeps the process, and the pool serves again', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [script, db.url], { timeout: 120_000 });
    expect(JSON.parse(stdout)).toEqual({
      transaction: 'CONNECTION_CLOSED',
      reserved: 'CONNECTION_CLOSED',
      preparing: 'failed',
      behind: 'CONNECTION_CLOSED',
      lostAfterBack: 'CONNECTION_CLOSED',
      othersSession: 'second',
      waitingReservation: 1,
      poolAfterWaiting: 1,
      coldReservation: 1,
      after: 1,
    });
  }, 150_000);
});
