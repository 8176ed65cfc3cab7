import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isoTimeNeeded } from '../src/api/audit-log/routes';
import { connect } from '../src/api/database/connection';
import { allLogged, loggedCheckpoint } from './support/audit-log';
import { built, ROOT } from './support/audit-verify-build';
import { TEST_APP_SECRET } from './support/database';
import { runEvents } from './support/events-cli';
import { as, type Client, createTestApp, signUp, type TestApp, teaFlowExecution } from './support/test-app';

/**
 * The audit log catches what the per-stream hashes cannot: each test tampers with the database as someone
 * with full access would (the APP_SECRET included, but not the audit log's signing key), then checks the
 * whole log with `events -- audit-log`, which trusts the public key alone.
 */
/** Files of a test: bundles, the public key and checkpoints an auditor keeps. */
let files: string;

beforeAll(async () => {
  built();
  files = await mkdtemp(path.join(tmpdir(), 'workbench-audit-tamper-'));
});
afterAll(() => rm(files, { recursive: true, force: true }));

/** The built offline verifier (`node dist/audit-verify.js`) on a bundle: no database, no APP_SECRET. */
function verifyOffline(args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(ROOT, 'dist/audit-verify.js'), ...args],
      { env: { PATH: process.env.PATH ?? '' } },
      (error, stdout) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout });
      },
    );
  });
}

describe('the audit log against tampering', () => {
  let t: TestApp;
  let alice: Client;

  /** Saves a file the auditor keeps; answers its path. */
  async function kept(name: string, text: string) {
    const file = path.join(files, `${Date.now()}-${Math.random().toString(36).slice(2)}-${name}`);
    await writeFile(file, text);
    return file;
  }

  /** The execution's audit bundle as the server gives it now, saved; `since`: earlier checkpoints to extend. */
  async function bundleOf(executionId: string, since?: number) {
    const query = since === undefined ? '' : `&since=${since}`;
    const response = await alice.get(`/api/executions/${executionId}/audit?format=bundle${query}`);
    expect(response.statusCode).toBe(200);
    return kept('bundle.json', response.body);
  }

  /** The log's public key, got once before any tampering, as an auditor would keep it. */
  async function publicKey() {
    return kept('log.pub', `${(await alice.get('/api/audit/public-key')).json().publicKey}\n`);
  }

  beforeEach(async () => {
    t = await createTestApp();
    alice = as(t.app, (await signUp(t.app, 'Alice')).cookie);
  });
  afterEach(() => t.close());

  async function ranExecution() {
    const { steps, executionId, run } = await teaFlowExecution(alice);
    for (const step of steps) expect((await run(step.id)).statusCode).toBe(200);
    return { executionId, streamId: `execution-${executionId}` };
  }

  /** Runs two executions and signs a checkpoint over them: what an auditor keeps a copy of. */
  async function checkpointed() {
    const first = await ranExecution();
    const second = await ranExecution();
    const checkpoint = await loggedCheckpoint(t.app.auditLog, t.db.sql);
    return { first, second, checkpoint };
  }

  const keyFile = () => t.app.config.auditSigningKeyFile;
  const auditLog = () => runEvents(t.db.url, ['audit-log'], { AUDIT_SIGNING_KEY: keyFile() });

  /** The leaves of a stream, by index. */
  async function leavesOf(streamId: string) {
    const rows = await t.db.sql<{ index: number }[]>`
      SELECT leaf_index::int AS index FROM audit_log_leaves WHERE stream_id = ${streamId} ORDER BY leaf_index`;
    return rows.map((row) => row.index);
  }

  it('verifies an untouched log, and a fresh bundle offline', async () => {
    const { first } = await checkpointed();
    const result = await auditLog();
    expect(result.stderr).toMatch(/audit log verified: \d+ leaves, 1 checkpoint\(s\) hold/);
    expect(result.code).toBe(0);
    const offline = await verifyOffline([await bundleOf(first.executionId), '--key', await publicKey()]);
    expect(offline).toEqual({
      code: 0,
      stdout: expect.stringMatching(/^verified 6 events up to checkpoint \d+\n$/),
    });
  });

  it("names the leaf of an event whose data was changed, even after its stream's hashes were made again with the right APP_SECRET", async () => {
    const { first } = await checkpointed();
    const key = await publicKey();
    const keyed = connect(t.db.url, { max: 1, appSecret: TEST_APP_SECRET });
    try {
      // The change and a stream whose hashes all check again: `verify` says verified.
      await keyed`
        UPDATE events SET data = jsonb_set(data, '{userInput}', '"black tea"')
        WHERE stream_id = ${first.streamId} AND stream_position = 2`;
      await rechain(keyed, first.streamId);
    } finally {
      await keyed.end();
    }
    expect((await alice.get(`/api/executions/${first.executionId}/verify`)).json()).toMatchObject({
      verified: true,
    });
    const [leaf] = (await leavesOf(first.streamId)).slice(1);
    const result = await auditLog();
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`leaf ${leaf}: ${first.streamId}#2 was changed after it was logged`);
    const offline = await verifyOffline([await bundleOf(first.executionId), '--key', key]);
    expect(offline.code).toBe(1);
    expect(offline.stdout).toContain(
      `stream ${first.streamId} position 2 (leaf ${leaf}): does not match the log at checkpoint`,
    );
  });

  it('names the leaves and the stream of an execution whose events were all deleted, offline too', async () => {
    // A run of a workspace: its auditors take the workspace's runs of a day as one bundle.
    const from = new Date(Date.now() - 60_000).toISOString();
    const workspace = (await alice.post('/api/workspaces', { name: 'Trà' })).json().id as string;
    const flow = (
      await alice.post('/api/flows', { name: 'Tea', description: 'Tea flow', workspaceId: workspace })
    ).json();
    const step = (
      await alice.post('/api/steps', { flowId: flow.id, order: 1, name: 'Ideas', systemPrompt: 'Tea?' })
    ).json();
    const executionId = (await alice.post(`/api/flows/${flow.id}/execute`)).json().id as string;
    expect((await alice.post(`/api/executions/${executionId}/steps/${step.id}/execute`, {})).statusCode).toBe(
      200,
    );
    const streamId = `execution-${executionId}`;
    await loggedCheckpoint(t.app.auditLog, t.db.sql);
    const key = await publicKey();
    const leaves = await leavesOf(streamId);
    await t.db.sql`DELETE FROM events WHERE stream_id = ${streamId}`;
    await t.db.sql`DELETE FROM streams WHERE stream_id = ${streamId}`;
    const result = await auditLog();
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      `leaves ${leaves[0]}-${leaves.at(-1)}: their events are missing (deleted) from ${streamId}`,
    );
    // The run is still listed in the workspace: its bundle holds the leaves the log has for it, and no event.
    const to = new Date(Date.now() + 60_000).toISOString();
    const response = await alice.get(
      `/api/workspaces/${workspace}/audit?format=bundle&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
    );
    expect(response.statusCode).toBe(200);
    // A period without its end is refused in the API's words.
    const noEnd = await alice.get(
      `/api/workspaces/${workspace}/audit?format=bundle&from=${encodeURIComponent(from)}`,
    );
    expect(noEnd.statusCode, noEnd.body).toBe(400);
    expect(noEnd.json().message).toBe(isoTimeNeeded('to'));
    const offline = await verifyOffline([await kept('workspace.json', response.body), '--key', key]);
    expect(offline.code).toBe(1);
    expect(offline.stdout).toContain(
      `stream ${streamId} position 1 (leaf ${leaves[0]}): the event the log holds is missing or was replaced`,
    );
  });

  it('finds a cut tail even after a new event was appended in its place', async () => {
    const { second, checkpoint } = await checkpointed();
    const key = await publicKey();
    const earlier = await kept('earlier.checkpoint', checkpoint.note);
    const leaves = await leavesOf(second.streamId);
    await t.db.sql`DELETE FROM events WHERE stream_id = ${second.streamId} AND stream_position = 6`;
    await t.db.sql`UPDATE streams SET version = 5 WHERE stream_id = ${second.streamId}`;
    // The server appends the next event at the freed position: the stream's own check finds nothing.
    expect((await alice.post(`/api/executions/${second.executionId}/reset`)).statusCode).toBe(200);
    await loggedCheckpoint(t.app.auditLog, t.db.sql);
    expect((await alice.get(`/api/executions/${second.executionId}/verify`)).json()).toMatchObject({
      verified: true,
    });
    const result = await auditLog();
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      `leaves ${leaves.at(-1)}-${leaves.at(-1)}: their events are missing (deleted) from ${second.streamId}`,
    );
    const offline = await verifyOffline([
      await bundleOf(second.executionId, checkpoint.size),
      '--key',
      key,
      '--checkpoint',
      earlier,
    ]);
    expect(offline.code).toBe(1);
    expect(offline.stdout).toContain(
      `stream ${second.streamId} position 6 (leaf ${leaves.at(-1)}): the event the log holds is missing or was replaced`,
    );
  });

  it('finds, offline, a log rewritten whole after a checkpoint the auditor kept', async () => {
    const { second, checkpoint } = await checkpointed();
    const key = await publicKey();
    const earlier = await kept('earlier.checkpoint', checkpoint.note);
    // Someone with the database and APP_SECRET cuts the tail and makes the whole log again without it:
    // every proof of the new bundle checks against the checkpoint it signs... which is not the server's key.
    await t.db.sql`DELETE FROM events WHERE stream_id = ${second.streamId} AND stream_position = 6`;
    await t.db.sql`UPDATE streams SET version = 5 WHERE stream_id = ${second.streamId}`;
    await t.db.sql`DELETE FROM audit_checkpoints`;
    await t.db.sql`DELETE FROM audit_log_nodes`;
    await t.db.sql`DELETE FROM audit_log_leaves`;
    // The run goes on, the log grows past the kept checkpoint, and the server signs the rewritten log with its
    // key: the bundle's own proofs all check; only the checkpoint the auditor kept shows the rewrite.
    expect((await alice.post(`/api/executions/${second.executionId}/reset`)).statusCode).toBe(200);
    const { steps } = (await alice.get(`/api/executions/${second.executionId}`)).json();
    for (const step of steps ?? [])
      await alice.post(`/api/executions/${second.executionId}/steps/${step.id}/execute`, {});
    const bundle = await bundleOf(second.executionId, checkpoint.size);
    expect((await verifyOffline([bundle, '--key', key])).code).toBe(0);
    const offline = await verifyOffline([bundle, '--key', key, '--checkpoint', earlier]);
    expect(offline.code).toBe(1);
    expect(offline.stdout).toMatch(
      new RegExp(
        `the log at checkpoint \\d+ does not extend checkpoint ${checkpoint.size} \\(cut or rewritten\\)`,
      ),
    );
  });

  it('finds the log itself rewritten to match a changed event, by the signed checkpoint', async () => {
    const { first, checkpoint } = await checkpointed();
    await t.db.sql`
      UPDATE events SET data = jsonb_set(data, '{userInput}', '"black tea"')
      WHERE stream_id = ${first.streamId} AND stream_position = 2`;
    // Everything after the change made again from the events: the leaves and the tree, but not the signature.
    await t.db.sql`DELETE FROM audit_log_nodes`;
    await t.db.sql`DELETE FROM audit_log_leaves`;
    await allLogged(t.app.auditLog, t.db.sql);
    const result = await auditLog();
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      `checkpoint ${checkpoint.size}: the log no longer gives its signed tree head (rewritten)`,
    );
  });

  it("finds the log's own tail cut, by a checkpoint over more leaves than it holds", async () => {
    const { checkpoint } = await checkpointed();
    await t.db.sql`DELETE FROM events WHERE global_position IN (
      SELECT global_position FROM audit_log_leaves WHERE leaf_index >= ${checkpoint.size - 3})`;
    await t.db.sql`DELETE FROM audit_log_leaves WHERE leaf_index >= ${checkpoint.size - 3}`;
    const result = await auditLog();
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      `checkpoint ${checkpoint.size} was signed over ${checkpoint.size} leaves, the log holds ${checkpoint.size - 3}: its tail was cut`,
    );
  });

  it('finds a checkpoint whose signature was forged in the database', async () => {
    const { checkpoint } = await checkpointed();
    await t.db.sql`
      UPDATE audit_checkpoints SET note = replace(note, ${`\n${checkpoint.size}\n`}, ${`\n${checkpoint.size - 1}\n`})`;
    const result = await auditLog();
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`checkpoint ${checkpoint.size}: its signature does not hold`);
  });
});

/**
 * Makes a stream's hashes again from its events as they now are, with the server's key: what someone holding
 * APP_SECRET can do, so that the stream's own check passes.
 */
async function rechain(keyed: ReturnType<typeof connect>, streamId: string) {
  const events = await keyed<{ position: number }[]>`
    SELECT stream_position::int AS position FROM events WHERE stream_id = ${streamId} ORDER BY stream_position`;
  for (const { position } of events) {
    await keyed`
      UPDATE events e SET hash = event_chain_hash(event_chain_key(),
        (SELECT p.hash FROM events p WHERE p.stream_id = e.stream_id AND p.stream_position = e.stream_position - 1),
        e.stream_id, e.stream_position, e.event_type, e.metadata, e.data)
      WHERE e.stream_id = ${streamId} AND e.stream_position = ${position}`;
  }
}
