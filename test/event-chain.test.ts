import { randomUUID } from 'node:crypto';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../src/api/database/connection';
import { migrate } from '../src/api/database/migrate';
import { EventStore } from '../src/eventstore';
import { rebuildProjections } from '../src/projections/rebuild';
import { createTestDatabase, TEST_APP_SECRET, type TestDatabase } from './support/database';
import { runEvents as runCli } from './support/events-cli';
import { as, type Client, createTestApp, signUp, type TestApp, teaFlowExecution } from './support/test-app';

describe('a record that proves itself', () => {
  let t: TestApp;
  let alice: Client;
  let bob: Client;
  let flowId: string;
  let executionId: string;
  let streamId: string;

  /** A fresh execution of both its steps run: six events, the last its completion. */
  async function ranExecution() {
    const { flow, steps, executionId: id, run } = await teaFlowExecution(alice);
    for (const step of steps) expect((await run(step.id)).statusCode).toBe(200);
    return { flowId: flow.id as string, executionId: id };
  }

  const runEvents = (args: string[], env: Record<string, string> = {}) => runCli(t.db.url, args, env);

  beforeAll(async () => {
    t = await createTestApp();
    alice = as(t.app, (await signUp(t.app, 'Alice')).cookie);
    bob = as(t.app, (await signUp(t.app, 'Bob')).cookie);
    ({ flowId, executionId } = await ranExecution());
    streamId = `execution-${executionId}`;
  });
  afterAll(() => t.close());

  it('answers verified with the count and the hash of the last event', async () => {
    const response = await alice.get(`/api/executions/${executionId}/verify`);
    expect(response.statusCode).toBe(200);
    const [last] = await t.db.sql<{ hash: string }[]>`
      SELECT encode(hash, 'hex') AS hash FROM events WHERE stream_id = ${streamId}
      ORDER BY stream_position DESC LIMIT 1`;
    expect(response.json()).toEqual({ verified: true, events: 6, head: last!.hash, checkpoint: null });
    expect(last!.hash).toMatch(/^[0-9a-f]{64}$/);
    const flow = await alice.get(`/api/flows/${flowId}/verify`);
    expect(flow.json()).toMatchObject({ verified: true, head: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it("hides another user's records: 404", async () => {
    expect((await bob.get(`/api/executions/${executionId}/verify`)).statusCode).toBe(404);
    expect((await bob.get(`/api/flows/${flowId}/verify`)).statusCode).toBe(404);
    expect((await bob.get(`/api/executions/${executionId}/audit?format=csv`)).statusCode).toBe(404);
    expect((await alice.get(`/api/executions/${executionId}/audit?format=xml`)).statusCode).toBe(400);
  });

  it('names the position of an event whose data was changed in the database', async () => {
    const { executionId: id } = await ranExecution();
    await t.db.sql`
      UPDATE events SET data = jsonb_set(data, '{userInput}', '"black tea"')
      WHERE stream_id = ${`execution-${id}`} AND stream_position = 2`;
    expect((await alice.get(`/api/executions/${id}/verify`)).json()).toEqual({
      checkpoint: null,
      verified: false,
      events: 6,
      firstBadPosition: 2,
    });
  });

  it('names the position of an event removed, or of two events swapped', async () => {
    const removed = await ranExecution();
    await t.db.sql`
      DELETE FROM events WHERE stream_id = ${`execution-${removed.executionId}`} AND stream_position = 3`;
    expect((await alice.get(`/api/executions/${removed.executionId}/verify`)).json()).toEqual({
      checkpoint: null,
      verified: false,
      events: 5,
      firstBadPosition: 3,
    });

    const swapped = await ranExecution();
    const stream = `execution-${swapped.executionId}`;
    await t.db.sql.begin(async (tx) => {
      await tx`UPDATE events SET stream_position = -4 WHERE stream_id = ${stream} AND stream_position = 4`;
      await tx`UPDATE events SET stream_position = 4 WHERE stream_id = ${stream} AND stream_position = 5`;
      await tx`UPDATE events SET stream_position = 5 WHERE stream_id = ${stream} AND stream_position = -4`;
    });
    expect((await alice.get(`/api/executions/${swapped.executionId}/verify`)).json()).toEqual({
      checkpoint: null,
      verified: false,
      events: 6,
      firstBadPosition: 4,
    });

    const cut = await ranExecution();
    await t.db.sql`
      DELETE FROM events WHERE stream_id = ${`execution-${cut.executionId}`} AND stream_position = 6`;
    expect((await alice.get(`/api/executions/${cut.executionId}/verify`)).json()).toEqual({
      checkpoint: null,
      verified: false,
      events: 5,
      firstBadPosition: 6,
    });
  });

  it('hashes appends that race on one stream from several connections', async () => {
    const pools = Array.from({ length: 4 }, () => connect(t.db.url, { max: 3, appSecret: TEST_APP_SECRET }));
    try {
      const stores = pools.map((pool) => new EventStore(pool));
      const stream = `race-${randomUUID()}`;
      await Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          stores[i % stores.length]!.append(stream, 'race', 'any', [
            { type: 'Counted', data: { i } },
            { type: 'Counted', data: { i, again: true } },
          ]),
        ),
      );
      expect(await t.store.verifyStream(stream)).toMatchObject({ verified: true, events: 48 });
    } finally {
      await Promise.all(pools.map((pool) => pool.end({ timeout: 5 })));
    }
  });

  it('refuses an event inserted by a connection without the key', async () => {
    const keyless = postgres(t.db.url, { max: 1, onnotice: () => {} });
    try {
      await expect(keyless`
        INSERT INTO events (stream_id, stream_position, event_id, event_type, data)
        VALUES (${streamId}, 7, gen_random_uuid(), 'ExecutionCompleted', '{}')`).rejects.toThrow(
        /no event key/,
      );
    } finally {
      await keyless.end({ timeout: 5 });
    }
    expect((await alice.get(`/api/executions/${executionId}/verify`)).json()).toMatchObject({
      verified: true,
    });
  });

  it('keeps every hash when the read models are rebuilt', async () => {
    const hashes = () =>
      t.db.sql`SELECT stream_id, stream_position, hash FROM events ORDER BY global_position`.then((rows) => [
        ...rows,
      ]);
    const before = await hashes();
    expect(await rebuildProjections(t.db.sql, t.store)).toBeGreaterThan(0);
    expect(await hashes()).toEqual(before);
  });

  it('gives the audit file as JSON and as CSV, every event with its time, actor, summary and hash', async () => {
    const json = await alice.get(`/api/executions/${executionId}/audit?format=json`);
    expect(json.statusCode).toBe(200);
    expect(json.headers['content-disposition']).toBe(
      `attachment; filename="execution-${executionId}-audit.json"`,
    );
    const audit = json.json();
    expect(audit.executionId).toBe(executionId);
    expect(audit.record).toMatchObject({ verified: true, events: 6 });
    expect(audit.events.map((event: { type: string }) => event.type)).toEqual([
      'ExecutionStarted',
      'StepRunStarted',
      'StepRunSucceeded',
      'StepRunStarted',
      'StepRunSucceeded',
      'ExecutionCompleted',
    ]);
    expect(audit.events[1]).toMatchObject({
      position: 2,
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      actor: { userId: expect.any(String), name: 'Alice' },
      summary: expect.stringContaining('step 1 run'),
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(audit.events.at(-1).hash).toBe(audit.record.head);

    const csv = await alice.get(`/api/executions/${executionId}/audit?format=csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toBe(
      `attachment; filename="execution-${executionId}-audit.csv"`,
    );
    const lines = csv.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('position,time,actor_id,actor,type,summary,hash');
    expect(lines).toHaveLength(7);
    // The summary quotes the input ("…"): the field is quoted and its quotes doubled.
    expect(lines[2]).toContain(',StepRunStarted,"step 1 run ');
    expect(lines[2]).toMatch(/input ""[^"]*""",[0-9a-f]{64}$/);
    expect(lines[2]!.startsWith(`2,${audit.events[1].at},${audit.events[1].actor.userId},Alice,`)).toBe(true);
  });

  it('checks from the command line, exiting 1 when a record was changed', async () => {
    const good = await runEvents(['verify', executionId]);
    expect(good.code).toBe(0);
    expect(good.stdout).toMatch(
      new RegExp(`^verified +execution-${executionId} +events=6 +head=[0-9a-f]{64}`),
    );
    expect((await runEvents(['verify', `flow-${flowId}`])).code).toBe(0);

    const changed = await ranExecution();
    await t.db.sql`
      UPDATE events SET metadata = jsonb_set(metadata, '{userId}', 'null')
      WHERE stream_id = ${`execution-${changed.executionId}`} AND stream_position = 1`;
    const bad = await runEvents(['verify', changed.executionId]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/^CHANGED +execution-\S+ +events=6 +first-bad-position=1/);
    const all = await runEvents(['verify', '--all', '--json']);
    expect(all.code).toBe(1);
    const checks = all.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(checks).toContainEqual(expect.objectContaining({ streamId, verified: true }));
    expect(checks).toContainEqual(
      expect.objectContaining({ streamId: `execution-${changed.executionId}`, verified: false }),
    );
    const keyless = await runEvents(['verify', executionId], { APP_SECRET: '', DATA_DIR: '/nonexistent' });
    expect(keyless.code).toBe(1);
    expect(keyless.stderr).toContain('verify needs');
    const wrongKey = await runEvents(['verify', executionId], {
      APP_SECRET: 'another-secret-another-secret-0123',
    });
    expect(wrongKey.code).toBe(1);
    // Six runs of the command line, each a Node process of its own: seconds each on a busy machine.
  }, 180_000);
});

describe('the upgrade that starts the chain', () => {
  it('chains the events recorded before it, and only those', async () => {
    const db = await createTestDatabase({ migrationsBelow: '019' });
    try {
      const sql = db.sql;
      const append = (stream: string, position: number, type: string) => sql`
        INSERT INTO events (stream_id, stream_position, event_id, event_type, data, metadata)
        VALUES (${stream}, ${position}, gen_random_uuid(), ${type}, ${sql.json({ n: position })},
                ${sql.json({ userId: null, at: '2026-01-01T00:00:00.000Z' })})`;
      await sql`INSERT INTO streams (stream_id, stream_type, version) VALUES ('old-one', 'old', 2), ('old-two', 'old', 1)`;
      await append('old-one', 1, 'Began');
      await append('old-one', 2, 'Went on');
      await append('old-two', 1, 'Began');
      await migrate(sql);
      const [unhashed] = await sql<
        { count: number }[]
      >`SELECT count(*)::int AS count FROM events WHERE hash IS NULL`;
      expect(unhashed!.count).toBe(0);
      const store = new EventStore(sql);
      expect(await store.verifyAllStreams()).toEqual([
        { streamId: 'old-one', verified: true, events: 2, head: expect.stringMatching(/^[0-9a-f]{64}$/) },
        { streamId: 'old-two', verified: true, events: 1, head: expect.stringMatching(/^[0-9a-f]{64}$/) },
      ]);

      // Migrating again chains nothing; an event slipped in later without its hash stays without one.
      await sql`UPDATE streams SET version = 2 WHERE stream_id = 'old-two'`;
      await sql`
        INSERT INTO events (stream_id, stream_position, event_id, event_type, data, metadata, hash)
        VALUES ('old-two', 2, gen_random_uuid(), 'Slipped in', '{}', '{}', NULL)`;
      expect(await migrate(sql)).toEqual([]);
      expect(await store.verifyStream('old-two')).toEqual({
        streamId: 'old-two',
        verified: false,
        events: 2,
        firstBadPosition: 2,
      });
      // Appended as the server appends, the next event checks after the chained ones.
      await store.append('old-one', 'old', 2, [{ type: 'Went on again', data: {} }]);
      expect(await store.verifyStream('old-one')).toMatchObject({ verified: true, events: 3 });
    } finally {
      await db.drop();
    }
  });
});

describe('each event hashed by the statement that appends it', () => {
  let db: TestDatabase;
  let store: EventStore;

  beforeAll(async () => {
    db = await createTestDatabase();
    store = new EventStore(db.sql);
  });
  afterAll(() => db.drop());

  /** A stream of `count` events appended one by one as commands append them. */
  async function stream(count: number) {
    const id = `hashed-${randomUUID()}`;
    for (let n = 1; n <= count; n++) {
      await store.append(id, 'hashed', n === 1 ? 'no_stream' : n - 1, [
        { type: 'Counted', data: { n }, metadata: { userId: 'u-1', commandId: randomUUID() } },
      ]);
    }
    return id;
  }

  it('has no trigger on events, and every hash is of its own event alone', async () => {
    const triggers = await db.sql`
      SELECT tgname FROM pg_trigger WHERE tgrelid = 'events'::regclass AND NOT tgisinternal`;
    expect(triggers).toHaveLength(0);
    const id = await stream(3);
    await store.append(id, 'hashed', 3, [
      { type: 'Batched', data: { n: 4 } },
      { type: 'Batched', data: null },
    ]);
    const rows = await db.sql<{ position: number; own: boolean; hash: string }[]>`
      SELECT stream_position AS position, encode(hash, 'hex') AS hash,
        hash = event_hash(event_chain_key(), stream_id, stream_position, event_type, metadata, data) AS own
      FROM events WHERE stream_id = ${id} ORDER BY stream_position`;
    expect(rows.map((row) => [row.position, row.own])).toEqual([
      [1, true],
      [2, true],
      [3, true],
      [4, true],
      [5, true],
    ]);
    expect(await store.verifyStream(id)).toEqual({
      streamId: id,
      verified: true,
      events: 5,
      head: rows.at(-1)!.hash,
    });
  });

  it('names a changed event by its position, the events after it still checking', async () => {
    const id = await stream(5);
    await db.sql`
      UPDATE events SET data = '{"n": 30}' WHERE stream_id = ${id} AND stream_position = 3`;
    expect(await store.verifyStream(id)).toEqual({
      streamId: id,
      verified: false,
      events: 5,
      firstBadPosition: 3,
    });
    const checks = await db.sql<{ position: number }[]>`
      SELECT stream_position AS position FROM events
      WHERE stream_id = ${id}
        AND NOT event_hash_checks(event_chain_key(), hash, NULL, stream_id, stream_position, event_type, metadata, data)`;
    expect(checks.map((row) => row.position)).toEqual([3]);
  });

  it('names two events swapped with their hashes by the first of them', async () => {
    const id = await stream(5);
    await db.sql.begin(async (tx) => {
      await tx`UPDATE events SET stream_position = -2 WHERE stream_id = ${id} AND stream_position = 2`;
      await tx`UPDATE events SET stream_position = 2 WHERE stream_id = ${id} AND stream_position = 4`;
      await tx`UPDATE events SET stream_position = 4 WHERE stream_id = ${id} AND stream_position = -2`;
    });
    expect(await store.verifyStream(id)).toEqual({
      streamId: id,
      verified: false,
      events: 5,
      firstBadPosition: 2,
    });
  });

  it('names an event moved into another stream by its position there', async () => {
    const from = await stream(2);
    const to = await stream(2);
    await db.sql`UPDATE events SET stream_id = ${to}, stream_position = 3 WHERE stream_id = ${from} AND stream_position = 2`;
    await db.sql`UPDATE streams SET version = 3 WHERE stream_id = ${to}`;
    expect(await store.verifyStream(to)).toEqual({
      streamId: to,
      verified: false,
      events: 3,
      firstBadPosition: 3,
    });
  });

  it('refuses an event inserted without its hash by a connection with the key', async () => {
    await expect(db.sql`
      INSERT INTO events (stream_id, stream_position, event_id, event_type, data)
      VALUES (${`hashed-${randomUUID()}`}, 1, gen_random_uuid(), 'Counted', '{}')`).rejects.toThrow(
      /computed by the statement that appends it/,
    );
  });
});

describe('the upgrade that hashes each event alone', () => {
  it('keeps the chained hashes checking, an old stream going on with events hashed alone', async () => {
    const db = await createTestDatabase({ migrationsBelow: '040' });
    try {
      const sql = db.sql;
      // Recorded as the chain recorded them: the trigger of 019 hashes each over the one before it.
      const append = (stream: string, position: number, type: string) => sql`
        INSERT INTO events (stream_id, stream_position, event_id, event_type, data, metadata)
        VALUES (${stream}, ${position}, gen_random_uuid(), ${type}, ${sql.json({ n: position })},
                ${sql.json({ userId: 'u-1', at: '2026-01-01T00:00:00.000Z' })})`;
      await sql`INSERT INTO streams (stream_id, stream_type, version) VALUES ('chained', 'old', 3), ('other', 'old', 3)`;
      for (const stream of ['chained', 'other']) {
        for (const position of [1, 2, 3]) await append(stream, position, 'Went on');
      }
      const hashes = () =>
        sql<{ stream: string; position: number; hash: string }[]>`
          SELECT stream_id AS stream, stream_position AS position, encode(hash, 'hex') AS hash FROM events
          WHERE stream_position <= 3 ORDER BY stream_id, stream_position`.then((rows) => [...rows]);
      const chained = await hashes();
      // 040 and whatever came after it.
      expect((await migrate(sql))[0]).toBe('040_event_hash_in_statement.sql');
      expect(await hashes()).toEqual(chained);

      const store = new EventStore(sql);
      for (const stream of ['chained', 'other']) {
        await store.append(stream, 'old', 3, [{ type: 'Went on again', data: { n: 4 } }]);
        await store.append(stream, 'old', 4, [
          { type: 'Went on again', data: { n: 5 } },
          { type: 'Went on again', data: { n: 6 } },
        ]);
      }
      const [own] = await sql<{ own: boolean }[]>`
        SELECT bool_and(hash = event_hash(event_chain_key(), stream_id, stream_position, event_type, metadata, data))
          AS own
        FROM events WHERE stream_position > 3`;
      expect(own!.own).toBe(true);
      expect(await store.verifyAllStreams()).toEqual([
        { streamId: 'chained', verified: true, events: 6, head: expect.stringMatching(/^[0-9a-f]{64}$/) },
        { streamId: 'other', verified: true, events: 6, head: expect.stringMatching(/^[0-9a-f]{64}$/) },
      ]);

      // A chained event changed, and in the other stream a new one, are each named at their position.
      await sql`UPDATE events SET data = '{"n": 20}' WHERE stream_id = 'chained' AND stream_position = 2`;
      await sql`UPDATE events SET data = '{"n": 50}' WHERE stream_id = 'other' AND stream_position = 5`;
      expect(await store.verifyAllStreams()).toEqual([
        { streamId: 'chained', verified: false, events: 6, firstBadPosition: 2 },
        { streamId: 'other', verified: false, events: 6, firstBadPosition: 5 },
      ]);
      // The last chained event and the first hashed alone, swapped: named at the first of them.
      await sql`UPDATE events SET data = '{"n": 2}' WHERE stream_id = 'chained' AND stream_position = 2`;
      await sql.begin(async (tx) => {
        await tx`UPDATE events SET stream_position = -3 WHERE stream_id = 'chained' AND stream_position = 3`;
        await tx`UPDATE events SET stream_position = 3 WHERE stream_id = 'chained' AND stream_position = 4`;
        await tx`UPDATE events SET stream_position = 4 WHERE stream_id = 'chained' AND stream_position = -3`;
      });
      expect(await store.verifyStream('chained')).toEqual({
        streamId: 'chained',
        verified: false,
        events: 6,
        firstBadPosition: 3,
      });
    } finally {
      await db.drop();
    }
  });
});
