import { randomUUID } from 'node:crypto';
import type { Sql, TransactionSql } from 'postgres';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../src/api/database/connection';
import {
  type Checkpoint,
  ConcurrencyConflict,
  EventStore,
  type LogTailer,
  type NewEvent,
  type RecordedEvent,
  type Statement,
} from '../src/eventstore';
import { heldBack } from '../src/eventstore/held-back-events';
import { createTestDatabase, TEST_APP_SECRET, type TestDatabase } from './support/database';

let db: TestDatabase;
let store: EventStore;
const pools: Sql[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  store = new EventStore(db.sql);
});
// Each test's pools are closed after it: the races open ten at a time, and the file's connections stay few.
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.end({ timeout: 5 })));
});
afterAll(async () => {
  await db.drop();
});

/** A connection pool of its own, as another server process would have; closed after the test. */
function anotherPool(max = 1): Sql {
  const pool = connect(db.url, { max, appSecret: TEST_APP_SECRET });
  pools.push(pool);
  return pool;
}

const streamId = (name: string) => `${name}-${randomUUID()}`;
const counted = (n: number, metadata?: NewEvent['metadata']): NewEvent[] =>
  Array.from({ length: n }, (_, i) => ({
    type: 'Counted',
    data: { n: i + 1 },
    ...(metadata ? { metadata } : {}),
  }));

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Everything readAll gives after `from`, following checkpoints page by page. */
async function readAllAfter(from: Checkpoint | null, limit = 100) {
  const events: RecordedEvent[] = [];
  let checkpoint = from;
  for (;;) {
    const page = await store.readAll({ after: checkpoint, limit });
    events.push(...page.events);
    checkpoint = page.checkpoint;
    if (page.events.length < limit) return { events, checkpoint };
  }
}

/**
 * An advisory lock held on a connection of its own: a statement of an append that takes it keeps that
 * append's transaction open until the lock is released.
 */
async function heldLock() {
  const key = Math.floor(Math.random() * 2 ** 31);
  const holder = await anotherPool().reserve();
  await holder`SELECT pg_advisory_lock(${key})`;
  return {
    take: (tx: TransactionSql) => tx`SELECT pg_advisory_xact_lock(${key})`,
    /** Resolves once a transaction waits for the lock. */
    waited: () =>
      waitFor(async () => {
        const [row] = await db.sql<[{ waiting: number }]>`
          SELECT count(*)::int AS waiting FROM pg_locks
          WHERE locktype = 'advisory' AND NOT granted AND objid = ${key}
            AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;
        return row.waiting > 0;
      }),
    release: async () => {
      await holder`SELECT pg_advisory_unlock(${key})`;
      holder.release();
    },
  };
}

async function conflictOf(promise: Promise<unknown>): Promise<ConcurrencyConflict> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ConcurrencyConflict);
  return error as ConcurrencyConflict;
}

describe('append and read', () => {
  it('appends to a new stream and reads it back with contiguous positions and filled metadata', async () => {
    const id = streamId('order');
    const first = await store.append(id, 'order', 'no_stream', [
      {
        type: 'Opened',
        data: { snake_case: 1, nested: { trailing_: [{ inner_key: true }] } },
        metadata: { userId: 'u1' },
      },
      { type: 'Renamed', data: 'plain string' },
      { type: 'Closed', data: null, metadata: { at: '2020-01-01T00:00:00.000Z', correlationId: 'c' } },
    ]);
    expect(first.duplicate).toBe(false);
    expect(first.nextExpectedVersion).toBe(3);
    expect(first.events.map((e) => e.streamPosition)).toEqual([1, 2, 3]);

    const read = await store.readStream(id);
    expect(read.version).toBe(3);
    expect(read.events).toEqual(first.events);
    const [opened, renamed, closed] = read.events;
    // Keys inside event data come back exactly as written, whatever the connection does to column names.
    expect(opened!.data).toEqual({ snake_case: 1, nested: { trailing_: [{ inner_key: true }] } });
    expect(opened!.metadata.userId).toBe('u1');
    expect(Date.parse(opened!.metadata.at!)).not.toBeNaN();
    expect(renamed!.data).toBe('plain string');
    expect(closed!.data).toBeNull();
    expect(closed!.metadata).toEqual({ at: '2020-01-01T00:00:00.000Z', correlationId: 'c' });
    for (const event of read.events) {
      expect(event.streamId).toBe(id);
      expect(event.eventId).toMatch(/^[0-9a-f-]{36}$/);
      expect(new Date(event.createdAt).toISOString()).toBe(event.createdAt);
      expect(typeof event.globalPosition).toBe('number');
      expect(typeof event.transactionId).toBe('string');
    }
    expect(new Set(read.events.map((e) => e.transactionId)).size).toBe(1);

    const second = await store.append(id, 'order', 3, counted(2));
    expect(second.nextExpectedVersion).toBe(5);
    expect(second.events.map((e) => e.streamPosition)).toEqual([4, 5]);
    expect(await store.streamVersion(id)).toBe(5);
    expect((await store.readStream(id, { after: 3 })).events.map((e) => e.streamPosition)).toEqual([4, 5]);
    const page = await store.readStream(id, { after: 1, limit: 2 });
    expect(page).toMatchObject({ version: 5 });
    expect(page.events.map((e) => e.streamPosition)).toEqual([2, 3]);
    expect(await store.readStream(id, { after: 5 })).toEqual({ version: 5, events: [] });
  });

  it('reads a missing stream as version 0 with no events', async () => {
    expect(await store.readStream(streamId('missing'))).toEqual({ version: 0, events: [] });
    expect(await store.streamVersion(streamId('missing'))).toBe(0);
  });

  it("treats expected version 0 as 'no_stream' and 'any' as no check", async () => {
    const id = streamId('zero');
    expect((await store.append(id, 'zero', 0, counted(1))).nextExpectedVersion).toBe(1);
    expect((await store.append(id, 'zero', 'any', counted(2))).nextExpectedVersion).toBe(3);
    const fresh = streamId('any');
    expect((await store.append(fresh, 'any', 'any', counted(1))).events[0]!.streamPosition).toBe(1);
  });
});

describe('many streams at once', () => {
  it('reads each stream after its own position, in position order, a stream with nothing new left out', async () => {
    const [a, b, c] = [streamId('many-a'), streamId('many-b'), streamId('many-c')];
    await store.append(a, 'test', 'no_stream', counted(3));
    await store.append(b, 'test', 'no_stream', counted(2));
    await store.append(c, 'test', 'no_stream', counted(1));
    const read = await store.readStreamsAfter([
      { streamId: a, after: 1 },
      { streamId: b, after: 0 },
      { streamId: c, after: 1 },
      { streamId: streamId('many-missing'), after: 0 },
    ]);
    expect([...read.keys()].sort()).toEqual([a, b].sort());
    expect(read.get(a)!.map((e) => [e.streamPosition, e.data])).toEqual([
      [2, { n: 2 }],
      [3, { n: 3 }],
    ]);
    expect(read.get(b)!.map((e) => e.streamPosition)).toEqual([1, 2]);
    expect(read.get(b)).toEqual((await store.readStream(b)).events);
  });

  it('reads more streams than one statement asks for', async () => {
    const ids = Array.from({ length: 1_001 }, () => streamId('many'));
    await Promise.all(ids.map((id) => store.append(id, 'test', 'no_stream', counted(1))));
    const read = await store.readStreamsAfter(ids.map((id) => ({ streamId: id, after: 0 })));
    expect(read.size).toBe(ids.length);
  });
});

describe('expected version', () => {
  it('reports a stale, ahead or missing-stream expectation as a typed conflict and writes nothing', async () => {
    const id = streamId('conflict');
    await store.append(id, 'conflict', 'no_stream', counted(3));

    const stale = await conflictOf(store.append(id, 'conflict', 1, counted(1)));
    expect(stale).toMatchObject({ streamId: id, expectedVersion: 1, actualVersion: 3 });
    const exists = await conflictOf(store.append(id, 'conflict', 'no_stream', counted(1)));
    expect(exists).toMatchObject({ expectedVersion: 'no_stream', actualVersion: 3 });
    await conflictOf(store.append(id, 'conflict', 7, counted(1)));
    const missing = await conflictOf(store.append(streamId('nothing'), 'conflict', 2, counted(1)));
    expect(missing.actualVersion).toBe(0);
    await conflictOf(store.append(id, 'conflict', 2, []));

    expect(await store.readStream(id)).toMatchObject({ version: 3 });
    expect((await store.readStream(id)).events).toHaveLength(3);
  });

  it('lets exactly one of 10 parallel appends at the same version win, from separate connections', async () => {
    const id = streamId('race');
    await store.append(id, 'race', 'no_stream', counted(2));
    const stores = Array.from({ length: 10 }, () => new EventStore(anotherPool()));
    await Promise.all(stores.map((s) => s.streamVersion(id))); // connections open before the race

    const outcomes = await Promise.allSettled(stores.map((s, i) => s.append(id, 'race', 2, counted(i + 1))));
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    const lost = outcomes.filter((o) => o.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(9);
    for (const outcome of lost) expect(outcome.reason).toBeInstanceOf(ConcurrencyConflict);
    const winner = won[0]!.value;
    const read = await store.readStream(id);
    expect(read.version).toBe(winner.nextExpectedVersion);
    expect(read.events.map((e) => e.streamPosition)).toEqual(read.events.map((_, i) => i + 1));
  });

  it('lets exactly one of 10 parallel creations of the same stream win', async () => {
    const id = streamId('create-race');
    const stores = Array.from({ length: 10 }, () => new EventStore(anotherPool()));
    await Promise.all(stores.map((s) => s.streamVersion(id)));

    const outcomes = await Promise.allSettled(
      stores.map((s) => s.append(id, 'race', 'no_stream', counted(2))),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const outcome of outcomes.filter((o) => o.status === 'rejected')) {
      expect(outcome.reason).toBeInstanceOf(ConcurrencyConflict);
    }
    expect(await store.streamVersion(id)).toBe(2);
  });

  it("serialises parallel 'any' appends into one contiguous stream", async () => {
    const id = streamId('any-race');
    const stores = Array.from({ length: 10 }, () => new EventStore(anotherPool()));
    await Promise.all(stores.map((s) => s.streamVersion(id)));

    await Promise.all(stores.map((s) => s.append(id, 'race', 'any', counted(3))));
    const read = await store.readStream(id);
    expect(read.version).toBe(30);
    expect(read.events.map((e) => e.streamPosition)).toEqual(read.events.map((_, i) => i + 1));
  });
});

describe('idempotency keys', () => {
  const keyed = (scope: string, key: string) => ({ idempotency: { scope, key, commandType: 'Count' } });

  it('answers a repeated key with its first outcome and appends nothing', async () => {
    const id = streamId('command');
    const key = randomUUID();
    const first = await store.append(id, 'command', 'no_stream', counted(2), keyed('u', key));
    expect(first.duplicate).toBe(false);

    // The same request again, with the expectation it was first sent with: a duplicate, not a conflict.
    const again = await store.append(id, 'command', 'no_stream', counted(2), keyed('u', key));
    expect(again).toEqual({ ...first, duplicate: true });
    const atCurrentVersion = await store.append(id, 'command', 2, counted(2), keyed('u', key));
    expect(atCurrentVersion).toEqual({ ...first, duplicate: true });
    const withAny = await store.append(id, 'command', 'any', counted(2), keyed('u', key));
    expect(withAny.duplicate).toBe(true);

    expect(await store.streamVersion(id)).toBe(2);
    expect(await store.findKeyedCommand('u', key)).toEqual({
      commandType: 'Count',
      streamId: id,
      events: first.events,
    });
    expect(await store.findKeyedCommand('u', randomUUID())).toBeNull();

    const next = await store.append(id, 'command', 2, counted(1), keyed('u', randomUUID()));
    expect(next.events[0]!.streamPosition).toBe(3);
  });

  it('scopes a key to who sent it: the same key of another scope is a new command', async () => {
    const key = randomUUID();
    const mine = await store.append(streamId('scoped'), 'command', 'no_stream', counted(1), keyed('a', key));
    const theirs = await store.append(
      streamId('scoped'),
      'command',
      'no_stream',
      counted(1),
      keyed('b', key),
    );
    expect(mine.duplicate).toBe(false);
    expect(theirs.duplicate).toBe(false);
    expect((await store.findKeyedCommand('b', key))!.streamId).toBe(theirs.events[0]!.streamId);
  });

  it('gives concurrent requests with one key one append and the same answer', async () => {
    const id = streamId('command-race');
    await store.append(id, 'command', 'no_stream', counted(1));
    const stores = Array.from({ length: 10 }, () => new EventStore(anotherPool()));
    await Promise.all(stores.map((s) => s.streamVersion(id)));
    const key = randomUUID();

    const outcomes = await Promise.all(
      stores.map((s) => s.append(id, 'command', 1, counted(3), keyed('u', key))),
    );
    expect(outcomes.filter((o) => !o.duplicate)).toHaveLength(1);
    const ids = outcomes[0]!.events.map((e) => e.eventId);
    for (const outcome of outcomes) {
      expect(outcome.events.map((e) => e.eventId)).toEqual(ids);
      expect(outcome.nextExpectedVersion).toBe(4);
    }
    expect(await store.streamVersion(id)).toBe(4);
  });

  it("gives concurrent requests with one key one append when they expect 'any' or 'no_stream'", async () => {
    const stores = Array.from({ length: 10 }, () => new EventStore(anotherPool()));
    for (const expected of ['any', 'no_stream'] as const) {
      const id = streamId(`command-${expected}`);
      const key = randomUUID();
      const outcomes = await Promise.all(
        stores.map((s) => s.append(id, 'command', expected, counted(2), keyed('u', key))),
      );
      expect(outcomes.filter((o) => !o.duplicate)).toHaveLength(1);
      expect(new Set(outcomes.map((o) => o.events.map((e) => e.eventId).join()))).toHaveProperty('size', 1);
      expect(await store.streamVersion(id)).toBe(2);
    }
  });

  it('gives concurrent requests with one key one new stream, though each names a stream of its own', async () => {
    const stores = Array.from({ length: 10 }, () => new EventStore(anotherPool()));
    const key = randomUUID();
    const outcomes = await Promise.all(
      stores.map((s) => s.append(streamId('new'), 'command', 'no_stream', counted(1), keyed('u', key))),
    );
    expect(outcomes.filter((o) => !o.duplicate)).toHaveLength(1);
    const created = outcomes.find((o) => !o.duplicate)!.events[0]!;
    for (const outcome of outcomes) expect(outcome.events[0]!.eventId).toBe(created.eventId);
    const [{ count }] = await db.sql<[{ count: number }]>`
      SELECT count(*)::int AS count FROM streams WHERE stream_id LIKE 'new-%'`;
    expect(count).toBe(1);
  });
});

describe('withStatements', () => {
  it('run in the append transaction: a refused statement rolls the append back', async () => {
    const id = streamId('rollback');
    await store.append(id, 'rollback', 'no_stream', counted(1));
    const seen: number[] = [];
    let counting: Statement | undefined;
    await expect(
      store.append(id, 'rollback', 1, counted(2), {
        withStatements: (tx, recorded) => {
          seen.push(...recorded.map((e) => e.streamPosition));
          counting = tx`SELECT count(*)::int AS count FROM events WHERE stream_id = ${id}`;
          return [counting, tx`SELECT 1 / 0`];
        },
      }),
    ).rejects.toMatchObject({ code: '22012' });
    expect(seen).toEqual([2, 3]);
    // The events were already inserted, in this transaction, when the statements ran.
    expect((await counting!)[0]).toEqual({ count: 3 });
    expect(await store.readStream(id)).toMatchObject({ version: 1 });
    expect((await store.readStream(id)).events).toHaveLength(1);

    // An error while building them: nothing was sent behind the append, and it is rolled back.
    const failure = new Error('projection failed');
    const fresh = streamId('rollback-new');
    await expect(
      store.append(fresh, 'rollback', 'no_stream', counted(1), {
        withStatements: () => {
          throw failure;
        },
      }),
    ).rejects.toBe(failure);
    expect(await store.streamVersion(fresh)).toBe(0);

    // The connections went back to the pool out of any transaction.
    const appended = await store.append(id, 'rollback', 1, counted(1), { withStatements: () => [] });
    expect(appended.nextExpectedVersion).toBe(2);
    expect(await store.streamVersion(id)).toBe(2);
  });

  it('replays a stream to the same state an inline projection wrote', async () => {
    await db.sql`CREATE TABLE counters (stream_id text PRIMARY KEY, value int NOT NULL, position bigint NOT NULL)`;
    type CounterEvent =
      | { type: 'Incremented'; data: { by: number } }
      | { type: 'Reset'; data: { to: number } };
    const evolve = (value: number, event: CounterEvent) =>
      event.type === 'Incremented' ? value + event.data.by : event.data.to;
    // The toy inline projection: the counter's value and the stream position it reflects, one statement
    // per event, in order.
    const project = (tx: TransactionSql, recorded: RecordedEvent[]) =>
      recorded.map((recordedEvent) => {
        const event = recordedEvent as unknown as CounterEvent;
        const { streamId: id, streamPosition: position } = recordedEvent;
        return event.type === 'Incremented'
          ? tx`
            INSERT INTO counters (stream_id, value, position) VALUES (${id}, ${event.data.by}, ${position})
            ON CONFLICT (stream_id) DO UPDATE SET value = counters.value + excluded.value, position = excluded.position`
          : tx`
            INSERT INTO counters (stream_id, value, position) VALUES (${id}, ${event.data.to}, ${position})
            ON CONFLICT (stream_id) DO UPDATE SET value = excluded.value, position = excluded.position`;
      });

    const id = streamId('counter');
    let version = 0;
    for (let i = 0; i < 30; i++) {
      const batch: CounterEvent[] =
        i % 7 === 6
          ? [{ type: 'Reset', data: { to: i } }]
          : [
              { type: 'Incremented', data: { by: i } },
              { type: 'Incremented', data: { by: 1 } },
            ];
      if (i % 5 === 4) {
        // A failing append leaves neither events nor projection behind, also when the refused statement
        // comes after the projection's.
        await expect(
          store.append(id, 'counter', version === 0 ? 'no_stream' : version, batch, {
            withStatements: (tx, recorded) => [...project(tx, recorded), tx`SELECT 1 / 0`],
          }),
        ).rejects.toMatchObject({ code: '22012' });
      }
      const appended = await store.append(id, 'counter', version === 0 ? 'no_stream' : version, batch, {
        withStatements: project,
      });
      version = appended.nextExpectedVersion;
    }

    const { events } = await store.readStream(id);
    const replayed = events.reduce((value, event) => evolve(value, event as unknown as CounterEvent), 0);
    const [row] = await db.sql<
      { value: number; position: number }[]
    >`SELECT value, position FROM counters WHERE stream_id = ${id}`;
    expect(row).toEqual({ value: replayed, position: version });
  });
});

describe('read all', () => {
  it('pages through every stream in log order from any checkpoint', async () => {
    // The head stops below the oldest transaction running anywhere on the server (other tests' databases
    // included), so it may lag behind earlier tests' events: this test reads its own streams' events only.
    const start = await store.headCheckpoint();
    const appended: RecordedEvent[] = [];
    for (let i = 0; i < 5; i++) {
      appended.push(...(await store.append(streamId('page'), 'page', 'no_stream', counted(3))).events);
    }
    const mine = new Set(appended.map((e) => e.streamId));
    let read: RecordedEvent[] = [];
    await waitFor(async () => {
      read = (await readAllAfter(start, 2)).events.filter((e) => mine.has(e.streamId));
      return read.length >= appended.length;
    });
    expect(read.map((e) => e.eventId)).toEqual(appended.map((e) => e.eventId));
    expect(read).toEqual(appended);
    const last = {
      transactionId: appended.at(-1)!.transactionId,
      globalPosition: appended.at(-1)!.globalPosition,
    };
    let head: Checkpoint | null = null;
    await waitFor(async () => {
      head = await store.headCheckpoint();
      return head?.globalPosition === last.globalPosition;
    });
    expect(head).toEqual(last);
    expect(await store.readAll({ after: head, limit: 10 })).toEqual({ events: [], checkpoint: head });
  });

  it('replays the same pages as the feed, each event without its metadata and time', async () => {
    const start = await store.headCheckpoint();
    const appended = (
      await store.append(streamId('replay'), 'replay', 'no_stream', counted(3, { userId: 'u' }))
    ).events;
    let fed: RecordedEvent[] = [];
    await waitFor(async () => {
      fed = (await store.readFeed({ after: start, limit: 1000 })).events.filter(
        (e) => e.streamId === appended[0]!.streamId,
      );
      return fed.length === appended.length;
    });
    const page = await store.readFeed({ after: start, limit: 1000 });
    const replayed = await store.replayFeed({ after: start, limit: 1000 });
    expect(replayed.checkpoint).toEqual(page.checkpoint);
    expect(replayed.heldBack).toBe(page.heldBack);
    expect(replayed.events).toEqual(page.events.map(({ metadata, createdAt, ...rest }) => rest));
    expect(replayed.events.filter((e) => e.streamId === appended[0]!.streamId)).toEqual(
      appended.map(({ metadata, createdAt, ...rest }) => rest),
    );
  });

  it('holds back an event committed beyond a slow transaction, then delivers both without skipping', async () => {
    const slowStore = new EventStore(anotherPool());
    const tailer = store.tail({ from: 'now', pollMs: 50 });
    const tailed: RecordedEvent[] = [];
    tailer.onEvents((events) => tailed.push(...events));
    await tailer.start();
    const before = await store.headCheckpoint();
    try {
      // A: appends and stays open on its own connection, its statement waiting for a lock.
      const lock = await heldLock();
      const a = slowStore.append(streamId('slow'), 'slow', 'no_stream', counted(2), {
        withStatements: (tx) => [lock.take(tx)],
      });
      await Promise.race([lock.waited(), a]);
      // B: appends and commits while A is open.
      const b = await store.append(streamId('fast'), 'fast', 'no_stream', counted(1));

      // B is committed but beyond the horizon: neither readAll nor the tailer may hand it out before A
      // (the tailer has read the log since B's commit).
      await tailer.readNow();
      const whileOpen = await store.readAll({ after: before, limit: 100 });
      expect(whileOpen.events.map((e) => e.eventId)).not.toContain(b.events[0]!.eventId);
      expect(tailed.map((e) => e.eventId)).not.toContain(b.events[0]!.eventId);
      expect(await store.hasHeldBackEvents()).toBe(true);

      await lock.release();
      const committedA = await a;
      const expected = [...committedA.events, ...b.events].map((e) => e.eventId);
      let read: string[] = [];
      await waitFor(async () => {
        read = (await readAllAfter(whileOpen.checkpoint)).events.map((e) => e.eventId);
        return expected.every((id) => read.includes(id));
      });
      expect(read).toEqual(expected);

      await waitFor(() => expected.every((id) => tailed.some((e) => e.eventId === id)));
      expect(tailed.map((e) => e.eventId)).toEqual(expected);
    } finally {
      await tailer.stop();
    }
  });
});

describe('log tailer', () => {
  let tailer: LogTailer | undefined;
  afterAll(() => tailer?.stop());

  it('receives events appended through another store on another pool, by NOTIFY, in order', async () => {
    const otherStore = new EventStore(anotherPool(2));
    // A poll far beyond the test's wait: only the notification can wake this tailer.
    tailer = store.tail({ from: 'now', pollMs: 60_000 });
    const received: RecordedEvent[] = [];
    tailer.onEvents((events) => received.push(...events));
    await tailer.start();

    const appended: RecordedEvent[] = [];
    const id = streamId('remote');
    for (let i = 0; i < 20; i++) {
      appended.push(
        ...(await otherStore.append(id, 'remote', i === 0 ? 'no_stream' : i * 2, counted(2))).events,
      );
      // Caught up now and then, so that several NOTIFYs (not one at the end) wake it.
      if (i % 5 === 0) await waitFor(() => received.length >= appended.length);
    }
    await waitFor(() => received.length >= appended.length);
    expect(received.map((e) => e.eventId)).toEqual(appended.map((e) => e.eventId));
    expect(received.map((e) => e.streamPosition)).toEqual(appended.map((_, i) => i + 1));
    await tailer.stop();
  });

  it('delivers every event exactly once, in log order, while writers append concurrently', async () => {
    const stores = [store, new EventStore(anotherPool(4))];
    tailer = store.tail({ from: await store.headCheckpoint(), pollMs: 100, batchSize: 7 });
    const received: RecordedEvent[] = [];
    tailer.onEvents((events) => received.push(...events));
    await tailer.start();

    const writers = Array.from({ length: 8 }, async (_, w) => {
      const id = streamId(`writer-${w}`);
      const events: RecordedEvent[] = [];
      for (let i = 0; i < 25; i++) {
        const result = await stores[w % 2]!.append(
          id,
          'writer',
          i === 0 ? 'no_stream' : events.length,
          counted((i % 3) + 1),
        );
        events.push(...result.events);
      }
      return events;
    });
    const appended = (await Promise.all(writers)).flat();
    await waitFor(() => received.length >= appended.length);
    // One more read of everything: an event delivered twice would be among them by now.
    await tailer.readNow();

    expect(received).toHaveLength(appended.length);
    expect(new Set(received.map((e) => e.eventId))).toEqual(new Set(appended.map((e) => e.eventId)));
    const order = received.map((e) => [BigInt(e.transactionId), e.globalPosition] as const);
    for (let i = 1; i < order.length; i++) {
      const [tx, position] = order[i]!;
      const [previousTx, previousPosition] = order[i - 1]!;
      expect(tx > previousTx || (tx === previousTx && position > previousPosition)).toBe(true);
    }
    await tailer.stop();
  });

  it('starts from the beginning with null, and stops delivering once stopped', async () => {
    tailer = store.tail({ from: null, pollMs: 50 });
    const received: RecordedEvent[] = [];
    tailer.onEvents((events) => received.push(...events));
    await tailer.start();
    const all = (await readAllAfter(null)).events;
    await waitFor(() => received.length >= all.length);
    expect(received.slice(0, all.length)).toEqual(all);

    // A witness that keeps running: once it has the next event, a running tailer would have had it too.
    const witness = store.tail({ from: 'now', pollMs: 50 });
    const witnessed: RecordedEvent[] = [];
    witness.onEvents((events) => witnessed.push(...events));
    await witness.start();
    try {
      await tailer.stop();
      const count = received.length;
      await store.append(streamId('after-stop'), 'x', 'no_stream', counted(1));
      await waitFor(() => witnessed.length === 1);
      await witness.readNow();
      expect(received).toHaveLength(count);
    } finally {
      await witness.stop();
    }
  });
});

describe('notification', () => {
  it('sends at most one NOTIFY per 20 ms, and one after the last commit', async () => {
    const listener = anotherPool();
    const heard: number[] = [];
    let markerHeard = false;
    const listening = await listener.listen('events_appended', (origin) => {
      if (origin === 'marker') markerHeard = true;
      else heard.push(performance.now());
    });
    try {
      const id = streamId('burst');
      const started = performance.now();
      for (let i = 0; i < 40; i++) await store.append(id, 'burst', i === 0 ? 'no_stream' : i, counted(1));
      const lastCommit = performance.now();
      // Notifications arrive in the order they were sent: after the marker, every one of the store's is in.
      await store.announced();
      await listener.notify('events_appended', 'marker');
      await waitFor(() => markerHeard);
      const elapsed = lastCommit - started;
      expect(heard.length).toBeGreaterThanOrEqual(1);
      expect(heard.length).toBeLessThanOrEqual(Math.ceil(elapsed / 20) + 2);
      expect(heard.at(-1)!).toBeGreaterThanOrEqual(lastCommit);
    } finally {
      await listening.unlisten();
    }
  });
});

describe('wake-ups', () => {
  it("wakes a watcher once per commit of its own store, and on another store's NOTIFY", async () => {
    const otherStore = new EventStore(anotherPool(2));
    let wakes = 0;
    const stop = await store.watchAppends(() => wakes++);
    // Listening established wakes it once, as a start (nothing could have been missed before).
    expect(wakes).toBe(1);
    wakes = 0;
    // The store's own listening connection hears every NOTIFY in the order sent, right beside the watcher: a
    // marker sent after the others has reached the watcher once heard here.
    const markers: string[] = [];
    const hearing = await db.sql.listen('events_appended', (origin) => {
      if (origin.startsWith('marker')) markers.push(origin);
    });
    const allHeard = async (marker: string) => {
      await db.sql.notify('events_appended', marker);
      await waitFor(() => markers.includes(marker));
    };
    try {
      const id = streamId('own-notify');
      for (let i = 0; i < 3; i++) await store.append(id, 'own', i === 0 ? 'no_stream' : i, counted(1));
      expect(wakes).toBe(3);
      // The store's own NOTIFYs come back to it and wake nothing (the marker wakes it once).
      await store.announced();
      await allHeard('marker-1');
      expect(wakes).toBe(4);
      await otherStore.append(streamId('other-notify'), 'other', 'no_stream', counted(1));
      await otherStore.announced();
      await allHeard('marker-2');
      expect(wakes).toBe(6);
    } finally {
      await stop();
      await hearing.unlisten();
    }
  });
});

describe('reading the feed', () => {
  // Every read of the feed (each tailer's, after every commit) asks whether events are held back. Asked as an
  // EXISTS over the transaction ids, the planner scanned the whole table whenever its statistics were behind
  // (a new or fast-growing log), and found nothing to stop at when nothing was held back.
  it('asks whether events are held back from the end of the index, not by scanning the log', async () => {
    const [events] = await db.sql<{ count: number }[]>`SELECT count(*)::int AS count FROM events`;
    expect(events!.count).toBeGreaterThan(100);
    const [row] = await db.sql`EXPLAIN (FORMAT JSON) SELECT ${heldBack(db.sql)} AS "heldBack"`;
    const plan = JSON.stringify(Object.values(row!)[0]);
    expect(plan).toContain('events_transaction_order_idx');
    expect(plan).not.toContain('"Seq Scan"');
  });
});

describe('every event has its stream', () => {
  // No foreign key says so (migration 012): the append writes the stream's row and its events in one
  // statement, and this holds after every append of the tests above, conflicts and races included.
  it('finds no event without its stream row, and a stream row whose version is its last event', async () => {
    const [row] = await db.sql<{ orphans: number; mismatched: number; events: number }[]>`
      SELECT (SELECT count(*)::int FROM events e
              WHERE NOT EXISTS (SELECT 1 FROM streams s WHERE s.stream_id = e.stream_id)) AS orphans,
             (SELECT count(*)::int FROM streams s
              WHERE s.version <> (SELECT coalesce(max(stream_position), 0) FROM events e
                                  WHERE e.stream_id = s.stream_id)) AS mismatched,
             (SELECT count(*)::int FROM events) AS events`;
    expect(row!.events).toBeGreaterThan(100);
    expect(row).toMatchObject({ orphans: 0, mismatched: 0 });
  });
});
