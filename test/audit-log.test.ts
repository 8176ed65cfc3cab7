import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuditBundle, checkAuditLog } from '../src/api/audit-log';
import { PROVED_LIMITS, provedStreams } from '../src/api/audit-log/log-tree';
import { SIZE_REFUSED, SIZE_TOO_LARGE } from '../src/api/audit-log/routes';
import { TIME_OUT_OF_RANGE } from '../src/api/http/request-schemas';
import { contentHash, eventLeafHash } from '../src/domain/audit/event-leaf';
import { verifyConsistency, verifyInclusion } from '../src/domain/audit/merkle';
import { decodeBase64, verifyCheckpoint } from '../src/domain/audit/signed-note';
import { allLogged } from './support/audit-log';
import {
  anotherInstance,
  as,
  type Client,
  createTestApp,
  signUp,
  type TestApp,
  teaFlowExecution,
} from './support/test-app';

type Bundle = AuditBundle;

const hashes = (proof: string[]) => proof.map((hash) => decodeBase64(hash)!);

/** Every event of the bundle proved at its checkpoint, by the library alone. */
function provedEvents(bundle: Pick<Bundle, 'checkpoint' | 'publicKey' | 'streams'>): number {
  const read = verifyCheckpoint(bundle.checkpoint.note, bundle.publicKey);
  if (!read.ok) throw new Error(read.message);
  let proved = 0;
  for (const stream of bundle.streams) {
    for (const event of stream.events) {
      const leaf = eventLeafHash({
        ...event,
        streamId: stream.streamId,
        contentHash: contentHash(event.content),
      });
      if (event.leafIndex === null) continue;
      if (verifyInclusion(leaf, event.leafIndex, read.value.size, hashes(event.proof), read.value.rootHash))
        proved++;
    }
  }
  return proved;
}

describe('two instances on one database', () => {
  it('give every event one leaf in the log order, whichever sequences, and sign checkpoints that hold', async () => {
    const t = await createTestApp();
    const other = await anotherInstance(t.db.url);
    try {
      const users = [
        as(t.app, (await signUp(t.app, 'Alice')).cookie),
        as(other.app, (await signUp(other.app, 'Bob')).cookie),
      ];
      // Both instances append at once, and both sequence and sign checkpoints at once.
      await Promise.all(
        users.flatMap((user) =>
          Array.from({ length: 3 }, async () => {
            const { steps, run } = await teaFlowExecution(user);
            for (const step of steps) expect((await run(step.id)).statusCode).toBe(200);
            await Promise.all([t.app.auditLog.checkpoint(), other.app.auditLog.checkpoint()]);
          }),
        ),
      );
      await allLogged(other.app.auditLog, t.db.sql);
      await Promise.all([t.app.auditLog.checkpoint(), other.app.auditLog.checkpoint()]);
      const [counts] = await t.db.sql<{ events: number; leaves: number; first: number; last: number }[]>`
        SELECT (SELECT count(*)::int FROM events) AS events, count(*)::int AS leaves,
          min(leaf_index)::int AS first, max(leaf_index)::int AS last
        FROM audit_log_leaves`;
      expect(counts).toEqual({
        events: counts!.events,
        leaves: counts!.events,
        first: 0,
        last: counts!.events - 1,
      });
      const check = await checkAuditLog(t.db.sql, t.app.auditLog.verifierKey);
      expect(check.problems).toEqual([]);
      expect(check.leaves).toBe(counts!.events);
      const [signed] = await t.db.sql<
        { count: number }[]
      >`SELECT count(*)::int AS count FROM audit_checkpoints`;
      expect(check.checkpointsVerified).toBe(signed!.count);
      expect(signed!.count).toBeGreaterThan(0);
      // Both instances sign with the one key file.
      expect(other.app.auditLog.verifierKey).toBe(t.app.auditLog.verifierKey);
    } finally {
      await other.close();
      await t.close();
    }
  });
});

describe('checkpoints on a timer', () => {
  it('signs one every CHECKPOINT_EVERY_SECONDS once the log grew', async () => {
    const t = await createTestApp({ checkpointEverySeconds: 1 });
    try {
      const alice = as(t.app, (await signUp(t.app, 'Alice')).cookie);
      const { executionId } = await teaFlowExecution(alice);
      // Waits for the checkpoint the timer signs (the test's own timeout bounds it).
      for (;;) {
        const [row] = await t.db.sql<
          { size: number }[]
        >`SELECT max(size)::int AS size FROM audit_checkpoints`;
        if (row?.size) {
          const check = (await alice.get(`/api/executions/${executionId}/verify`)).json();
          if (check.checkpoint?.coversRecord) break;
        }
        // The timer's next checkpoint runs the sequencer first.
        await t.app.auditLog.nextSequenced(5_000);
      }
    } finally {
      await t.close();
    }
  });
});

describe('the signed audit log', () => {
  let t: TestApp;
  let alice: Client;
  let bob: Client;
  let checkpointDir: string;

  beforeAll(async () => {
    checkpointDir = await mkdtemp(path.join(tmpdir(), 'workbench-checkpoints-'));
    t = await createTestApp({
      checkpointDir,
      auditSigningKeyFile: path.join(checkpointDir, 'key', 'audit-key'),
    });
    alice = as(t.app, (await signUp(t.app, 'Alice')).cookie);
    bob = as(t.app, (await signUp(t.app, 'Bob')).cookie);
  });
  afterAll(async () => {
    await t.close();
    await rm(checkpointDir, { recursive: true, force: true });
  });

  async function ranExecution() {
    const { steps, executionId, run } = await teaFlowExecution(alice);
    for (const step of steps) expect((await run(step.id)).statusCode).toBe(200);
    return executionId;
  }

  it('proves every event of an execution in a bundle signed by a key kept out of the database', async () => {
    const executionId = await ranExecution();
    const response = await alice.get(`/api/executions/${executionId}/audit?format=bundle`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toContain('audit-bundle.json');
    const bundle = response.json() as Bundle;
    expect(bundle.format).toBe('workbench-audit-bundle/v1');
    expect(bundle.streams).toHaveLength(1);
    const [stream] = bundle.streams;
    expect(stream!.events.map((event) => event.position)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(stream!.leaves.map((leaf) => leaf.position)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(provedEvents(bundle)).toBe(6);
    // The key is a file of its own (mode 0600); the public key is served.
    const keyFile = path.join(checkpointDir, 'key', 'audit-key');
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    expect((await readFile(keyFile, 'utf8')).startsWith('PRIVATE+KEY+workbench/audit-log+')).toBe(true);
    const publicKey = (await alice.get('/api/audit/public-key')).json();
    expect(publicKey.publicKey).toBe(bundle.publicKey);
    const [row] = await t.db.sql<{ found: number }[]>`
      SELECT count(*)::int AS found FROM audit_checkpoints WHERE key_id = ${publicKey.keyId}`;
    expect(row!.found).toBeGreaterThan(0);
    // A copy of the checkpoint lives outside the database.
    const copy = await readFile(path.join(checkpointDir, `${bundle.checkpoint.size}.checkpoint`), 'utf8');
    expect(copy).toBe(bundle.checkpoint.note);
  });

  it('signs a new checkpoint only when the log grew, and proves each extends the one before', async () => {
    const first = (
      await alice.get(`/api/executions/${await ranExecution()}/audit?format=bundle`)
    ).json() as Bundle;
    // Nothing appended since: the latest is signed once, then answered as it is.
    await allLogged(t.app.auditLog, t.db.sql);
    const latest = (await alice.get('/api/audit/checkpoints/latest')).json();
    expect(latest.size).toBeGreaterThanOrEqual(first.checkpoint.size);
    expect((await alice.get('/api/audit/checkpoints/latest')).json()).toEqual(latest);
    const executionId = await ranExecution();
    const later = (
      await alice.get(`/api/executions/${executionId}/audit?format=bundle&since=${first.checkpoint.size}`)
    ).json() as Bundle;
    expect(later.checkpoint.size).toBeGreaterThan(first.checkpoint.size);
    const old = verifyCheckpoint(first.checkpoint.note, first.publicKey);
    const now = verifyCheckpoint(later.checkpoint.note, later.publicKey);
    if (!old.ok || !now.ok) throw new Error('a checkpoint does not verify');
    expect(later.consistency).toHaveLength(1);
    expect(
      verifyConsistency(
        old.value.size,
        now.value.size,
        old.value.rootHash,
        now.value.rootHash,
        hashes(later.consistency[0]!.proof),
      ),
    ).toBe(true);
    const route = (
      await alice.get(
        `/api/audit/proofs/consistency?from=${first.checkpoint.size}&to=${later.checkpoint.size}`,
      )
    ).json();
    expect(route.proof).toEqual(later.consistency[0]!.proof);
    const list = (await alice.get('/api/audit/checkpoints?limit=1')).json();
    expect(list.items[0].size).toBe(later.checkpoint.size);
    const next = (await alice.get(`/api/audit/checkpoints?limit=1&cursor=${list.nextCursor}`)).json();
    expect(next.items[0].size).toBeLessThan(later.checkpoint.size);
    // A cursor is the list's own: a size written in its place, or another list's cursor, is refused, not read.
    const history = (await alice.get(`/api/executions/${executionId}/events?limit=1`)).json();
    for (const cursor of [String(later.checkpoint.size), '99999999999999999999', history.nextCursor]) {
      const refused = await alice.get(`/api/audit/checkpoints?limit=1&cursor=${cursor}`);
      expect(refused.statusCode, cursor).toBe(400);
      expect(refused.json().code, cursor).toBe('rule_violated');
    }
  });

  it('answers inclusion proofs for whoever may read the record, and 404 to anyone else', async () => {
    const executionId = await ranExecution();
    const proofs = await alice.get(`/api/audit/proofs/inclusion?executionId=${executionId}`);
    expect(proofs.statusCode).toBe(200);
    const publicKey = (await alice.get('/api/audit/public-key')).json().publicKey;
    expect(provedEvents({ ...proofs.json(), publicKey })).toBe(6);
    expect((await bob.get(`/api/audit/proofs/inclusion?executionId=${executionId}`)).statusCode).toBe(404);
    expect((await bob.get(`/api/executions/${executionId}/audit?format=bundle`)).statusCode).toBe(404);
  });

  it("shows on a record's check the latest checkpoint, whether it covers the record and whether its signature holds", async () => {
    const executionId = await ranExecution();
    const before = (await alice.get(`/api/executions/${executionId}/verify`)).json();
    expect(before.checkpoint === null || before.checkpoint.coversRecord === false).toBe(true);
    const bundle = (await alice.get(`/api/executions/${executionId}/audit?format=bundle`)).json() as Bundle;
    const after = (await alice.get(`/api/executions/${executionId}/verify`)).json();
    expect(after.checkpoint).toEqual({
      size: bundle.checkpoint.size,
      at: bundle.checkpoint.at,
      coversRecord: true,
      signatureVerified: true,
    });
    // A checkpoint rewritten in the database no longer holds under the key.
    await t.db.sql`
      UPDATE audit_checkpoints SET note = replace(note, ${`\n${bundle.checkpoint.size}\n`}, ${`\n${bundle.checkpoint.size + 1}\n`})
      WHERE size = ${bundle.checkpoint.size}`;
    const forged = (await alice.get(`/api/executions/${executionId}/verify`)).json();
    expect(forged.checkpoint).toMatchObject({ coversRecord: true, signatureVerified: false });
    await t.db
      .sql`UPDATE audit_checkpoints SET note = ${bundle.checkpoint.note} WHERE size = ${bundle.checkpoint.size}`;
  });

  it('proves a record whose content fits one answer, and refuses one past it before reading its events', async () => {
    const executionId = await ranExecution();
    const bundle = (await alice.get(`/api/executions/${executionId}/audit?format=bundle`)).json() as Bundle;
    const [stream] = bundle.streams;
    const content = stream!.events.reduce((sum, event) => sum + event.content.length, 0);
    const streamIds = [stream!.streamId];
    const size = bundle.checkpoint.size;
    const fits = await provedStreams(t.db.sql, streamIds, size, { ...PROVED_LIMITS, content });
    expect(fits).toEqual(bundle.streams);
    await expect(
      provedStreams(t.db.sql, streamIds, size, { ...PROVED_LIMITS, content: content - 1 }),
    ).rejects.toMatchObject({
      kind: 'rule_violated',
      message: `Các event của bản ghi có ${content} ký tự nội dung, nhiều hơn ${content - 1} ký tự mà một câu trả lời chứa: hãy chọn ít lần chạy hơn (khoảng thời gian ngắn hơn)`,
    });
    expect(PROVED_LIMITS).toEqual({ events: 100_000, content: 100_000_000 });
  });

  it('refuses strange asks with a 4xx', async () => {
    const executionId = await ranExecution();
    for (const url of [
      `/api/executions/${executionId}/audit?format=bundle&since=abc`,
      `/api/executions/${executionId}/audit?format=bundle&since=${Array.from({ length: 11 }, (_, i) => i + 1).join(',')}`,
      `/api/executions/${executionId}/audit?format=bundle&since=99999999999999999999`,
      '/api/audit/proofs/consistency?from=5&to=2',
      '/api/audit/proofs/consistency?from=-1&to=2',
      '/api/audit/proofs/inclusion',
      `/api/audit/proofs/inclusion?executionId=${executionId}&flowId=${executionId}`,
      '/api/audit/checkpoints?cursor=x',
      '/api/audit/checkpoints?limit=100000',
    ]) {
      const response = await alice.get(url);
      expect([400, 422], url).toContain(response.statusCode);
    }
    // A size is digits: an empty, signed, written-otherwise or unsafe one is refused, naming the parameter.
    for (const [url, detail] of [
      ['/api/audit/proofs/consistency?from=&to=', `from: ${SIZE_REFUSED}`],
      ['/api/audit/proofs/consistency?from=0&to=', `to: ${SIZE_REFUSED}`],
      ['/api/audit/proofs/consistency?to=2', `from: ${SIZE_REFUSED}`],
      ['/api/audit/proofs/consistency?from=-1&to=2', `from: ${SIZE_REFUSED}`],
      ['/api/audit/proofs/consistency?from=1e0&to=2', `from: ${SIZE_REFUSED}`],
      ['/api/audit/proofs/consistency?from=1&from=2&to=2', `from: ${SIZE_REFUSED}`],
      ['/api/audit/proofs/consistency?from=1&to=99999999999999999999', `to: ${SIZE_TOO_LARGE}`],
      [`/api/audit/proofs/inclusion?executionId=${executionId}&checkpoint=`, `checkpoint: ${SIZE_REFUSED}`],
      [
        `/api/audit/proofs/inclusion?executionId=${executionId}&checkpoint=0x10`,
        `checkpoint: ${SIZE_REFUSED}`,
      ],
    ]) {
      const response = await alice.get(url!);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().detail, url).toBe(detail);
    }
    // A time PostgreSQL cannot store (year 0, or past year 9999 once in UTC) is refused, not a 500.
    const workspace = (await alice.post('/api/workspaces', { name: 'Sổ kiểm toán' })).json().id as string;
    for (const [from, to] of [
      ['0000-01-01T00:00:00Z', '2030-01-01T00:00:00Z'],
      ['0001-01-01T00:00:00+14:00', '2030-01-01T00:00:00Z'],
      ['2020-01-01T00:00:00Z', '9999-12-31T23:59:59-14:00'],
    ]) {
      const range = `from=${encodeURIComponent(from!)}&to=${encodeURIComponent(to!)}`;
      for (const url of [
        `/api/workspaces/${workspace}/audit?${range}`,
        `/api/workspaces/${workspace}/executions?${range}`,
      ]) {
        const response = await alice.get(url);
        expect(response.statusCode, url).toBe(400);
        expect(response.json().detail, url).toMatch(TIME_OUT_OF_RANGE);
      }
    }
    const earliest = `from=${encodeURIComponent('0001-01-01T00:00:00Z')}&to=${encodeURIComponent('9999-12-31T23:59:59Z')}`;
    expect((await alice.get(`/api/workspaces/${workspace}/audit?${earliest}`)).statusCode).toBe(200);
    // A consistency proof from any earlier size: the auditor holds that checkpoint, the log may not.
    const fromThree = (await alice.get(`/api/executions/${executionId}/audit?format=bundle&since=3`)).json();
    expect(fromThree.consistency[0].from).toEqual({ size: 3, at: null, note: null });
    for (const url of [
      '/api/audit/proofs/consistency?from=1&to=999999999',
      `/api/audit/proofs/inclusion?executionId=${executionId}&checkpoint=1`,
    ]) {
      expect([404, 422], url).toContain((await alice.get(url)).statusCode);
    }
  });
});
