import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CommandHandler } from '../src/api/commands/command-handler';
import { DEFAULT_RETRY_POLICY } from '../src/api/commands/retry-policy';
import { executionAggregate } from '../src/api/executions/execution-aggregate';
import { WorkspacesRepository } from '../src/api/workspaces/workspaces-repository';
import { decider } from '../src/domain/execution/decider';
import { executionSnapshot } from '../src/domain/execution/snapshot';
import type { ExecutionState } from '../src/domain/execution/types';
import { canonicalJson, SNAPSHOT_EVERY } from '../src/domain/snapshot';
import type { EventStore, RecordedEvent } from '../src/eventstore';
import { executionStreamId, toExecutionEvent } from '../src/projections/project-execution-events';
import { rebuildProjections } from '../src/projections/rebuild';
import {
  type AnotherInstance,
  anotherInstance,
  as,
  type Client,
  createFlow,
  createTestApp,
  signUp,
  type TestApp,
} from './support/test-app';

/** Step runs on the execution: two events each, so the stream passes three snapshot intervals. */
const RUNS = 160;
/** One user runs them all, as fast as the test goes. */
const UNLIMITED = { freeStepAllowance: 1_000_000, modelCallsPerMinute: 0 };

const foldOf = (events: RecordedEvent[]) =>
  events.map(toExecutionEvent).reduce(decider.evolve, decider.initialState());

/** Events a command handler's loads take from the log, by what they read. */
function countReads(store: EventStore) {
  const counted = { fromSnapshot: 0, snapshotsUsed: 0, whole: 0 };
  const fromSnapshot = store.readStreamFromSnapshot.bind(store);
  const whole = store.readStream.bind(store);
  vi.spyOn(store, 'readStreamFromSnapshot').mockImplementation(async (...args) => {
    const read = await fromSnapshot(...args);
    counted.fromSnapshot += read.events.length;
    if (read.snapshot) counted.snapshotsUsed++;
    return read;
  });
  vi.spyOn(store, 'readStream').mockImplementation(async (...args) => {
    const read = await whole(...args);
    counted.whole += read.events.length;
    return read;
  });
  return counted;
}

describe('snapshots of an execution stream', () => {
  let t: TestApp;
  let client: Client;
  let cookie: string;
  let executionId: string;
  let streamId: string;
  let stepId: string;
  let events: RecordedEvent[];
  let whole: ExecutionState;

  /** A command handler as a process that keeps no state would have: each load reads the log. */
  const freshHandler = (snapshotEvery = 0) =>
    new CommandHandler(t.store, DEFAULT_RETRY_POLICY, new WorkspacesRepository(t.db.sql), { snapshotEvery });
  const load = (handler: CommandHandler) => handler.load(executionAggregate, executionId, null);
  const stored = () =>
    t.db.sql<{ shape: string; version: number; state: string }[]>`
      SELECT shape, version, state::text AS state FROM snapshots WHERE stream_id = ${streamId}`;
  const dropSnapshots = () => t.db.sql`DELETE FROM snapshots WHERE stream_id = ${streamId}`;
  const store = (version: number, state: unknown, shape = executionSnapshot.shape) =>
    t.store.writeSnapshot({ streamId, shape, version, state });

  beforeAll(async () => {
    t = await createTestApp(UNLIMITED);
    cookie = (await signUp(t.app)).cookie;
    client = as(t.app, cookie);
    const { flow, steps } = await createFlow(client, 'Long', [
      { name: 'Write', systemPrompt: 'Write a line.' },
    ]);
    stepId = steps[0].id;
    executionId = (await client.post(`/api/flows/${flow.id}/execute`)).json().id;
    streamId = executionStreamId(executionId);
    for (let i = 0; i < RUNS; i++) {
      const run = await client.post(`/api/executions/${executionId}/steps/${stepId}/execute`, {});
      expect(run.statusCode).toBe(200);
    }
    events = (await t.store.readStream(streamId)).events;
    whole = foldOf(events);
  });
  afterAll(() => t.close());

  it('is written by the append that crosses a multiple of the interval, as the fold up to its version', async () => {
    expect(events.length).toBeGreaterThan(3 * SNAPSHOT_EVERY);
    const [row, ...others] = await stored();
    expect(others).toEqual([]);
    expect(row!.shape).toBe(executionSnapshot.shape);
    // The newest multiple of the interval the stream passed, at the end of the append that crossed it.
    const crossed = Math.floor(events.length / SNAPSHOT_EVERY) * SNAPSHOT_EVERY;
    expect(row!.version).toBeGreaterThanOrEqual(crossed);
    expect(events[row!.version - 1]!.metadata.commandId).not.toBe(events[row!.version]?.metadata.commandId);
    expect(canonicalJson(JSON.parse(row!.state))).toBe(
      canonicalJson(executionSnapshot.encode(foldOf(events.slice(0, row!.version)))),
    );
  });

  it('gives the state of the full fold, loaded from a snapshot at any position', async () => {
    const reads = countReads(t.store);
    try {
      for (let position = 1; position <= events.length; position++) {
        await dropSnapshots();
        const encoded = executionSnapshot.encode(foldOf(events.slice(0, position)));
        // Stored and read back as JSON, as any snapshot is.
        await store(position, encoded);
        const before = reads.fromSnapshot;
        // A handler of its own each time: one that kept the execution would read only what followed it.
        const loaded = await load(freshHandler());
        expect(reads.fromSnapshot - before).toBe(events.length - position);
        expect(loaded.version).toBe(events.length);
        expect(loaded.state).toEqual(whole);
        expect(canonicalJson(loaded.state)).toBe(canonicalJson(whole));
      }
      expect(reads.snapshotsUsed).toBe(events.length);
      expect(reads.whole).toBe(0);
    } finally {
      vi.restoreAllMocks();
    }
  }, 180_000); // A load for each of the stream's ~320 positions: minutes on a busy machine, not 30 s.

  it('is not read when of another shape or refused by decode: the stream is folded from its start', async () => {
    const reads = countReads(t.store);
    try {
      await dropSnapshots();
      await store(events.length - 5, { what: 'an older decider wrote this' }, 'execution.0');
      expect(await load(freshHandler())).toEqual({ state: whole, version: events.length });
      expect(reads).toEqual({ fromSnapshot: events.length, snapshotsUsed: 0, whole: 0 });

      await dropSnapshots();
      await store(events.length - 5, { exists: 'garbage', results: 'not a list' });
      expect(await load(freshHandler())).toEqual({ state: whole, version: events.length });
      // The garbage came with 5 events after it; then the whole stream was read.
      expect(reads).toEqual({ fromSnapshot: events.length + 5, snapshotsUsed: 1, whole: events.length });
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('is written by a load that folded an interval or more, so the next load folds less', async () => {
    await dropSnapshots();
    await load(freshHandler(SNAPSHOT_EVERY));
    const [row] = await stored();
    expect(row!.version).toBe(events.length);
    expect(canonicalJson(JSON.parse(row!.state))).toBe(canonicalJson(executionSnapshot.encode(whole)));
  });

  it('spares another instance the stream: its step run folds only the events after the snapshot', async () => {
    let second: AnotherInstance | undefined;
    try {
      second = await anotherInstance(t.db.url, UNLIMITED);
      const reads = countReads(second.app.store);
      const stranger = (await signUp(t.app)).cookie;
      const outsider = await as(second.app, stranger).get(`/api/executions/${executionId}`);
      expect(outsider.statusCode).toBe(404);
      const before = (await stored())[0]!.version;
      const run = await as(second.app, cookie).post(
        `/api/executions/${executionId}/steps/${stepId}/execute`,
        {},
      );
      expect(run.statusCode).toBe(200);
      expect(reads.snapshotsUsed).toBeGreaterThan(0);
      expect(reads.whole).toBe(0);
      // The outsider's refused read and the step run's load: each from the snapshot on.
      expect(reads.fromSnapshot).toBeLessThan(2 * SNAPSHOT_EVERY);
      expect(reads.fromSnapshot).toBeLessThanOrEqual(2 * (events.length - before) + 2);
      const after = (await t.store.readStream(streamId)).events;
      expect((await load(freshHandler())).state).toEqual(foldOf(after));
      events = after;
      whole = foldOf(after);
    } finally {
      vi.restoreAllMocks();
      await second?.close();
    }
  });

  it('is dropped by a rebuild of the read models, and written again by the next long load', async () => {
    const wrong = { ...whole, results: [] };
    await store(events.length + 1000, executionSnapshot.encode(wrong));
    await rebuildProjections(t.db.sql, t.store);
    expect(await stored()).toEqual([]);
    expect((await load(freshHandler(SNAPSHOT_EVERY))).state).toEqual(whole);
    expect((await stored()).map((row) => row.version)).toEqual([events.length]);
  });

  it('is never what the history shows: the state at a position and the whole log are folded from events', async () => {
    await dropSnapshots();
    const wrong: ExecutionState = { ...whole, status: 'stopped', results: [] };
    await store(events.length, executionSnapshot.encode(wrong));
    // A command's load takes it (so were the history to use snapshots, this would show).
    expect((await load(freshHandler())).state).toEqual(wrong);
    const reads = countReads(t.store);
    try {
      const now = (await client.get(`/api/executions/${executionId}/state`)).json();
      expect(now.results).toHaveLength(whole.results.length);
      expect(now.status).toBe(whole.status);
      const at = events.length - 1;
      const earlier = (await client.get(`/api/executions/${executionId}/state?at=${at}`)).json();
      expect(earlier.version).toBe(at);
      expect(earlier.results).toHaveLength(foldOf(events.slice(0, at)).results.length);
      expect(reads.snapshotsUsed).toBe(0);
    } finally {
      vi.restoreAllMocks();
      await dropSnapshots();
    }
  });
});
