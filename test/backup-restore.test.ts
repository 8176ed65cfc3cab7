import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { checkAuditLog } from '../src/api/audit-log';
import { connect } from '../src/api/database/connection';
import { createOwnKeyCipher } from '../src/api/own-keys/own-key-cipher';
import { PROJECT_ROOT } from '../src/api/runtime/project-root';
import { EventStore } from '../src/eventstore';
import { READ_MODEL_TABLES, rebuildProjections } from '../src/projections/rebuild';
import { loggedCheckpoint } from './support/audit-log';
import { createTestDatabase } from './support/database';
import { withoutDatabaseUrl } from './support/server-process';
import {
  type AnotherInstance,
  anotherInstance,
  as,
  type Client,
  createFlow,
  createTestApp,
  signUp,
  TEST_APP_SECRET,
  type TestApp,
} from './support/test-app';

const run = promisify(execFile);
const OWN_KEY = 'AIza-own-key-to-keep-0001';

/** The built tool, as `npm run backup` / `npm run restore` run it from the sources. */
async function tool(args: string[], env: Record<string, string>) {
  try {
    const { stdout } = await run(
      process.execPath,
      [path.join(PROJECT_ROOT, 'dist/server/backup.js'), ...args],
      {
        cwd: PROJECT_ROOT,
        env: { ...withoutDatabaseUrl(process.env), LOG_LEVEL: 'warn', ...env },
      },
    );
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: `${failed.stdout}${failed.stderr}` };
  }
}

/** A database of its own on the test server with nothing in it, not even the schema. */
async function emptyDatabase() {
  const admin = postgres(inject('adminDatabaseUrl'), { max: 1, onnotice: () => {} });
  const name = `r_${randomBytes(6).toString('hex')}`;
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end({ timeout: 5 });
  const url = new URL(inject('adminDatabaseUrl'));
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const again = postgres(inject('adminDatabaseUrl'), { max: 1, onnotice: () => {} });
      await again.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await again.end({ timeout: 5 });
    },
  };
}

async function readModels(sql: postgres.Sql) {
  const tables: Record<string, unknown[]> = {};
  for (const table of [...READ_MODEL_TABLES, 'flows', 'steps']) {
    tables[table] = await sql.unsafe(`SELECT * FROM ${table} ORDER BY ${table}::text`);
  }
  return tables;
}

/** A user's work: a flow of two steps, started and run. */
async function work(client: Client, name: string) {
  const {
    flow,
    steps: [first],
  } = await createFlow(client, name, [
    { name: 'Ideas', systemPrompt: 'Three ideas about tea' },
    { name: 'Post', systemPrompt: 'A post from [[step-1]]' },
  ]);
  const execution = (await client.post(`/api/flows/${flow.id}/execute`)).json();
  const ran = await client.post(`/api/executions/${execution.id}/steps/${first!.id}/execute`, {
    userInput: '',
  });
  if (ran.statusCode !== 200) throw new Error(`run: ${ran.statusCode} ${ran.body}`);
}

describe('backup and restore', () => {
  let source: TestApp;
  let dir: string;
  let owner: Client;
  let ownerCookie: string;
  let otherCookie: string;
  const dropped: (() => Promise<void>)[] = [];
  const restoredApps: AnotherInstance[] = [];

  beforeAll(async () => {
    source = await createTestApp({ freeStepAllowance: 1_000_000, modelCallsPerMinute: 0 });
    dir = await mkdtemp(path.join(tmpdir(), 'workbench-backup-'));
    const signedUp = await signUp(source.app, 'Lan');
    ownerCookie = signedUp.cookie;
    owner = as(source.app, ownerCookie);
    const added = await owner.post('/api/user/api-keys', {
      keyName: 'Mine',
      apiKey: OWN_KEY,
      keyType: 'gemini',
    });
    expect(added.statusCode).toBe(201);
    otherCookie = (await signUp(source.app, 'Minh')).cookie;
    await work(as(source.app, otherCookie), 'Before');
  });
  afterAll(async () => {
    for (const app of restoredApps) await app.close();
    for (const drop of dropped) await drop();
    await source?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('makes one consistent snapshot while requests keep writing, which restores with its events, read models and keys', {
    timeout: 120_000,
  }, async () => {
    const file = path.join(dir, 'under-load.backup');
    // Four clients write flows, executions and runs the whole time the backup is taken.
    let writing = true;
    const clients = await Promise.all(
      ['A', 'B', 'C', 'D'].map(async (name) => as(source.app, (await signUp(source.app, name)).cookie)),
    );
    let rounds = 0;
    const load = Promise.all(
      clients.map(async (client, i) => {
        for (let n = 0; writing || n === 0; n++) {
          await work(client, `Load ${i}-${n}`);
          rounds += 1;
        }
      }),
    );
    // Taken once writes of the load have committed, so the snapshot holds some and misses others.
    await vi.waitFor(() => expect(rounds).toBeGreaterThan(0), { timeout: 30_000, interval: 20 });
    const backedUp = await tool(['backup', file], {
      DATABASE_URL: source.db.url,
      APP_SECRET: TEST_APP_SECRET,
    });
    writing = false;
    await load;
    expect(backedUp.output).toMatch(/^Backed up \d+ rows of \d+ tables \(\d+ events\) to /);
    expect(backedUp.code).toBe(0);
    expect(rounds).toBeGreaterThan(4);

    const target = await emptyDatabase();
    dropped.push(target.drop);
    const restored = await tool(['restore', file], { DATABASE_URL: target.url, APP_SECRET: TEST_APP_SECRET });
    expect(restored.output).toMatch(/^Restored \d+ rows/);
    expect(restored.code).toBe(0);

    const sql = connect(target.url, { max: 2, appSecret: TEST_APP_SECRET });
    try {
      // Every event restored is the source's, as it was, its hash too; each stream whole from its first event.
      const events = await sql<
        { globalPosition: number; streamId: string; streamPosition: number; data: unknown; hash: Buffer }[]
      >`
        SELECT global_position, stream_id, stream_position, data, hash FROM events ORDER BY global_position`;
      expect(events.length).toBeGreaterThan(20);
      const original = await source.db.sql<typeof events>`
        SELECT global_position, stream_id, stream_position, data, hash FROM events
        WHERE global_position = ANY(${events.map((event) => event.globalPosition)}) ORDER BY global_position`;
      expect(events).toEqual(original);
      const streams = await sql<{ whole: boolean }[]>`
        SELECT count(*) = max(stream_position) AND min(stream_position) = 1 AS whole FROM events GROUP BY stream_id`;
      expect(streams.every((stream) => stream.whole)).toBe(true);
      // The restored record still proves itself.
      const checks = await new EventStore(sql).verifyAllStreams();
      expect(checks.length).toBeGreaterThan(2);
      expect(checks.filter((check) => !check.verified)).toEqual([]);

      // The read models were taken at the same moment as the events: a rebuild finds them as they are.
      const loaded = await readModels(sql);
      expect(loaded.executions!.length).toBeGreaterThan(1);
      await rebuildProjections(sql, new EventStore(sql), 50);
      expect(await readModels(sql)).toEqual(loaded);

      // The own key still opens with the same APP_SECRET.
      const [key] = await sql<{ encryptedApiKey: string }[]>`SELECT encrypted_api_key FROM user_api_keys`;
      expect(createOwnKeyCipher(TEST_APP_SECRET).decrypt(key!.encryptedApiKey)).toBe(OWN_KEY);
    } finally {
      await sql.end({ timeout: 5 });
    }

    // A server on the restored database: the same session goes on, and new work is appended after the old.
    const server = await anotherInstance(target.url);
    restoredApps.push(server);
    const same = as(server.app, ownerCookie);
    expect((await same.get('/api/auth/user')).json().firstName).toBe('Lan');
    expect((await same.get('/api/user/usage')).json().remainingSteps).toBe(-1);
    // (Lan's own key would call Gemini: the new work is another user's, on the offline model.)
    const other = as(server.app, otherCookie);
    await work(other, 'After restore');
    const flows = (await other.get('/api/flows')).json() as { name: string }[];
    expect(flows.map((flow) => flow.name)).toContain('After restore');
    // Appended after the restore, the new events are chained to the restored ones.
    const checking = connect(target.url, { max: 1, appSecret: TEST_APP_SECRET });
    try {
      const checks = await new EventStore(checking).verifyAllStreams();
      expect(checks.filter((check) => !check.verified)).toEqual([]);
      // The audit log goes on from the restored leaves and checkpoints: every event once, every checkpoint holds.
      await loggedCheckpoint(server.app.auditLog, checking);
      const log = await checkAuditLog(checking, server.app.auditLog.verifierKey);
      expect(log.problems).toEqual([]);
      const [counts] = await checking<{ events: number; leaves: number }[]>`
        SELECT (SELECT count(*)::int FROM events) AS events, (SELECT count(*)::int FROM audit_log_leaves) AS leaves`;
      expect(counts!.leaves).toBe(counts!.events);
    } finally {
      await checking.end({ timeout: 5 });
    }
  });

  it('refuses a database that is not empty, another APP_SECRET unless told, and a file that is no backup', async () => {
    const file = path.join(dir, 'quiet.backup');
    expect(
      (await tool(['backup', file], { DATABASE_URL: source.db.url, APP_SECRET: TEST_APP_SECRET })).code,
    ).toBe(0);

    const notEmpty = await tool(['restore', file], {
      DATABASE_URL: source.db.url,
      APP_SECRET: TEST_APP_SECRET,
    });
    expect(notEmpty.code).toBe(1);
    expect(notEmpty.output).toContain('The database to restore into is not empty');

    const target = await emptyDatabase();
    dropped.push(target.drop);
    const otherSecret = 'another-secret-another-secret-another-0123456789';
    const refused = await tool(['restore', file], { DATABASE_URL: target.url, APP_SECRET: otherSecret });
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('--other-secret');
    const allowed = await tool(['restore', file, '--other-secret'], {
      DATABASE_URL: target.url,
      APP_SECRET: otherSecret,
    });
    expect(allowed.code).toBe(0);
    expect(allowed.output).toContain('own API keys must be added again');

    // A database a server already started on is past the schema of a backup made before its last migration.
    const older = path.join(dir, 'older.backup');
    const lines = gunzipSync(await readFile(file))
      .toString('utf8')
      .split('\n');
    const header = JSON.parse(lines[0]!);
    const migrations = header.migrations;
    header.migrations = migrations.slice(0, -1);
    lines[0] = JSON.stringify(header);
    await writeFile(older, gzipSync(lines.join('\n')));
    const started = await createTestDatabase();
    dropped.push(started.drop);
    const ahead = await tool(['restore', older], { DATABASE_URL: started.url, APP_SECRET: TEST_APP_SECRET });
    expect(ahead.code).toBe(1);
    expect(ahead.output).toContain('has migrations the backup does not');

    // A table the schema does not have: refused in one line, nothing loaded.
    const foreign = path.join(dir, 'foreign.backup');
    // Every migration the backup was made with: only the table is foreign.
    header.migrations = migrations;
    header.tables = [...header.tables, { name: 'no_such_table', columns: ['id'] }];
    lines[0] = JSON.stringify(header);
    await writeFile(foreign, gzipSync(lines.join('\n')));
    const fresh = await emptyDatabase();
    dropped.push(fresh.drop);
    const unfit = await tool(['restore', foreign], { DATABASE_URL: fresh.url, APP_SECRET: TEST_APP_SECRET });
    expect(unfit.code).toBe(1);
    expect(unfit.output).toMatch(/^.*foreign\.backup does not fit this database: .*no_such_table/);
    expect(unfit.output).not.toContain('    at ');

    const junk = path.join(dir, 'junk.backup');
    await writeFile(junk, 'not a backup at all');
    const other = await emptyDatabase();
    dropped.push(other.drop);
    const notBackup = await tool(['restore', junk], { DATABASE_URL: other.url, APP_SECRET: TEST_APP_SECRET });
    expect(notBackup.code).toBe(1);
    expect(notBackup.output).toContain('is not a backup of this application');

    const usage = await tool(['restore'], { DATABASE_URL: other.url, APP_SECRET: TEST_APP_SECRET });
    expect(usage.code).toBe(2);
    expect(usage.output).toContain('npm run restore -- <file>');
  });
});
