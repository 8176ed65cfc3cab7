import type { PendingQuery, Row, Sql, TransactionSql } from 'postgres';
import { tellAppendTiming } from './append-timing';
import { type AppendToStream, appendToStream } from './append-to-stream';
import { AppendedSignal, EVENTS_APPENDED_CHANNEL } from './appended-signal';
import { ConcurrencyConflict } from './concurrency-conflict';
import { eventsBehind } from './events-behind';
import { findCommand } from './find-command';
import { headCheckpoint } from './head-checkpoint';
import { hasHeldBackEvents } from './held-back-events';
import { findKeyedCommand, type IdempotencyKey, isKeyTaken, KeyTaken, recordKey } from './idempotency-keys';
import { LogTailer, type TailOptions } from './log-tailer';
import { type FeedPage, type FeedRead, readFeed, replayFeed } from './read-all';
import { readStream } from './read-stream';
import { readStreamsAfter } from './read-streams';
import { sessionLost } from './session-lost';
import { readStreamFromSnapshot, type Snapshot, writeSnapshot } from './snapshots';
import { streamVersion } from './stream-version';
import type {
  AppendResult,
  Checkpoint,
  EventsListener,
  ExpectedVersion,
  NewEvent,
  RecordedEvent,
} from './types';
import { type StreamCheck, streamHashes, verifyStreams } from './verify-stream';

/**
 * A statement as postgres.js builds it, not yet sent: it fails only when PostgreSQL refuses it (or the
 * connection breaks), never by a check in JavaScript after its answer.
 */
export type Statement = PendingQuery<Row[]>;

export interface AppendOptions {
  /**
   * The statements that commit with the events, or not at all (inline projections), built at once from the
   * recorded events: they are sent behind the append with COMMIT right after them, so the read models cost
   * no round trip of their own. A statement PostgreSQL refuses fails the transaction, COMMIT then rolls it
   * back, and the error reaches the caller; so does an error thrown while building them.
   */
  withStatements?: (tx: TransactionSql, recorded: RecordedEvent[]) => Statement[];
  /**
   * The client's key for this command: recorded with the events in one transaction. When the key is taken,
   * nothing is written and the events the key's first command appended come back with `duplicate: true`,
   * also when two requests with the key race, in one process or several.
   */
  idempotency?: IdempotencyKey | undefined;
}

/** The event log on PostgreSQL: streams guarded by their version, and one gap-safe feed of everything. */
export class EventStore {
  private readonly signal: AppendedSignal;
  private readonly committedListeners = new Set<EventsListener>();

  constructor(private readonly sql: Sql) {
    this.signal = new AppendedSignal(sql);
  }

  /**
   * Appends `events` to the stream if it is at `expectedVersion`, else throws ConcurrencyConflict. With an
   * idempotency key already taken, nothing is appended and the key's earlier events come back with
   * `duplicate: true`.
   */
  async append(
    streamId: string,
    streamType: string,
    expectedVersion: ExpectedVersion,
    events: NewEvent[],
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    if (events.length === 0) return this.appendNothing(streamId, expectedVersion);
    const append: AppendToStream = { streamId, streamType, expectedVersion, events };
    const started = performance.now();
    let recorded: RecordedEvent[];
    try {
      recorded = await this.write(append, options);
    } catch (error) {
      if (!(error instanceof KeyTaken) && !isStreamRace(error)) throw error;
      recorded = [];
    }
    if (recorded.length === 0)
      return this.whyNothingWasWritten(streamId, expectedVersion, options.idempotency);
    tellAppendTiming(started, recorded.length);
    this.tellCommitted(recorded);
    this.signal.committed();
    return { nextExpectedVersion: recorded.at(-1)!.streamPosition, events: recorded, duplicate: false };
  }

  /**
   * `listener` gets the events of each append of this store as soon as they are committed, before any tailer
   * can read them (one stream's events, in position order; appends that race may be told out of their commit
   * order). Other stores' commits never come here: a tailer is the one way to see every commit. Returns the
   * way to stop.
   */
  onCommitted(listener: EventsListener): () => void {
    this.committedListeners.add(listener);
    return () => this.committedListeners.delete(listener);
  }

  /** The command a client's key was first used for, with the events it appended; null: the key is new. */
  findKeyedCommand(scope: string, key: string) {
    return findKeyedCommand(this.sql, scope, key);
  }

  /** The events a command appended, or null when it has not been appended. */
  findCommand(commandId: string): Promise<RecordedEvent[] | null> {
    return findCommand(this.sql, commandId);
  }

  readStream(streamId: string, options: { after?: number; limit?: number } = {}) {
    return readStream(this.sql, streamId, options);
  }

  /** Many streams' events, each after its own position (readStreamsAfter). */
  readStreamsAfter(from: readonly { streamId: string; after: number }[]) {
    return readStreamsAfter(this.sql, from);
  }

  /**
   * The stream from its newest snapshot of `shape` on: the snapshot and the events after it (all of them when
   * there is none). For a command's load only: a snapshot is a cache, and what must show the log itself (a
   * replay, the state at a position) reads it with readStream.
   */
  readStreamFromSnapshot(streamId: string, shape: string) {
    return readStreamFromSnapshot(this.sql, streamId, shape);
  }

  /**
   * The statement that stores a snapshot (kept only if newer than the stream's stored one of its shape): sent
   * in an append's transaction through `withStatements`, or alone when `tx` is left out.
   */
  writeSnapshot(snapshot: Snapshot, tx?: TransactionSql): Statement {
    return writeSnapshot(tx ?? this.sql, snapshot);
  }

  /** A page of the gap-safe feed of every stream, strictly after `after` (null: from the start). */
  async readAll(options: {
    after: Checkpoint | null;
    limit: number;
  }): Promise<{ events: RecordedEvent[]; checkpoint: Checkpoint | null }> {
    const { events, checkpoint } = await readFeed(this.sql, options);
    return { events, checkpoint };
  }

  /** readAll, and whether committed events wait behind an older transaction (what a tailer needs). */
  readFeed(options: FeedRead): Promise<FeedPage> {
    return readFeed(this.sql, options);
  }

  /** readFeed for a replay of the log (a rebuild of the read models): each event without metadata and time. */
  replayFeed(options: FeedRead) {
    return replayFeed(this.sql, options);
  }

  headCheckpoint(): Promise<Checkpoint | null> {
    return headCheckpoint(this.sql);
  }

  /** How many events a reader at `after` is behind the log now, counted up to `atMost`. */
  eventsBehind(after: Checkpoint | null, atMost: number): Promise<number> {
    return eventsBehind(this.sql, after, atMost);
  }

  /** Checks one stream's hashes; null when there is no such stream. Needs the connection's event key. */
  async verifyStream(streamId: string): Promise<StreamCheck | null> {
    return (await verifyStreams(this.sql, streamId))[0] ?? null;
  }

  /** Checks every stream's hashes, in stream id order. Needs the connection's event key. */
  verifyAllStreams(): Promise<StreamCheck[]> {
    return verifyStreams(this.sql, null);
  }

  /** Each event's hash by stream position, in hex. */
  streamHashes(streamId: string): Promise<Map<number, string | null>> {
    return streamHashes(this.sql, streamId);
  }

  streamVersion(streamId: string): Promise<number> {
    return streamVersion(this.sql, streamId);
  }

  /** Committed events not yet readable through `readAll` because an older transaction is still running. */
  hasHeldBackEvents(): Promise<boolean> {
    return hasHeldBackEvents(this.sql);
  }

  /** Resolves once other processes have been told of every commit so far (their NOTIFY is sent). */
  announced(): Promise<void> {
    return this.signal.announced();
  }

  /** A reader of the whole log in order; call `start()` on it. */
  tail(options: TailOptions): LogTailer {
    return new LogTailer(this, options);
  }

  /**
   * Calls `wake` after this store's commits and on other stores' NOTIFY (and whenever LISTEN is
   * re-established after a lost connection, since notifications may have been missed). Returns the way to stop.
   */
  async watchAppends(wake: () => void): Promise<() => Promise<void>> {
    const stopLocal = this.signal.onAppended(wake);
    try {
      // This store's own NOTIFY comes back too: its commits woke `wake` already.
      const listening = await this.sql.listen(
        EVENTS_APPENDED_CHANNEL,
        (origin) => {
          if (origin !== this.signal.origin) wake();
        },
        wake,
      );
      return async () => {
        stopLocal();
        await listening.unlisten();
      };
    } catch (error) {
      stopLocal();
      throw error;
    }
  }

  /**
   * A single statement is already a transaction, so only a key to record or statements to go with the
   * events need an explicit one: two round trips. BEGIN travels with the append instead of waiting for its
   * own answer (postgres.js's `begin` waits), and COMMIT travels behind the key and the statements. The
   * connection is reserved, idle and ours alone, so BEGIN cannot fail unless the connection does, and then
   * so does everything behind it.
   */
  private async write(
    append: AppendToStream,
    { withStatements, idempotency }: AppendOptions,
  ): Promise<RecordedEvent[]> {
    if (!withStatements && !idempotency) return appendToStream(this.sql, append);
    const connection = await this.sql.reserve();
    // A reserved connection runs the same statements as a transaction's; only savepoints are missing.
    const tx = connection as unknown as TransactionSql;
    // Its session gone: the transaction went with it, and the connection is postgres.js's again (sessionLost).
    let lost = false;
    try {
      const begun = connection`BEGIN`.execute();
      // Handled now: a failed BEGIN answers before anything waits for it, and must not go unhandled.
      begun.catch(() => {});
      let statements: Statement[] = [];
      let recorded: RecordedEvent[];
      try {
        recorded = await appendToStream(tx, append);
        await begun;
        if (recorded.length > 0) {
          statements = [
            ...(idempotency ? [recordKey(tx, idempotency, recorded)] : []),
            ...(withStatements?.(tx, recorded) ?? []),
          ];
        }
      } catch (error) {
        if (!sessionLost(error)) await connection`ROLLBACK`;
        throw error;
      }
      // The claim matched nothing: nothing to keep.
      if (recorded.length === 0) {
        await connection`ROLLBACK`;
        return recorded;
      }
      // Each statement is handed to the connection in its order, and COMMIT behind them (Promise.all alone
      // would hand them over a microtask after COMMIT); postgres.js sends what a connection is given in one
      // tick as one write. A refused statement leaves the transaction failed, and PostgreSQL answers its
      // COMMIT with a ROLLBACK.
      for (const statement of statements) statement.execute();
      const still = stillTheAppends(tx).execute();
      const commit = connection`COMMIT`.execute();
      // Answered below, or never: see the lost session.
      commit.catch(() => {});
      const [written] = await Promise.allSettled([Promise.all([...statements, still])]);
      if (written.status === 'rejected') {
        // A statement postgres.js had not sent yet (one not yet described on this connection holds back
        // those behind it) stays unsent and unanswered when the session is lost, and so would COMMIT.
        if (sessionLost(written.reason)) throw written.reason;
        const ended = await commit.then(
          () => null,
          (error: unknown) => error,
        );
        lost = sessionLost(ended);
        throw isKeyTaken(written.reason) ? new KeyTaken() : written.reason;
      }
      const committed = await commit;
      if (committed.command !== 'COMMIT') throw new Error('The append was rolled back at its commit.');
      if (written.value.at(-1)?.[0]?.transactionId !== recorded[0]!.transactionId) {
        // The append's transaction ended before the statements behind it: they ran each on its own, and
        // COMMIT, finding no transaction, still answered COMMIT. Whatever ended it (a ROLLBACK, most likely;
        // a COMMIT would have stored the events), the command cannot say what it stored.
        throw new AppendTransactionLost();
      }
      return recorded;
    } catch (error) {
      if (sessionLost(error)) lost = true;
      throw error;
    } finally {
      if (!lost) connection.release();
    }
  }

  /** Every listener is told, however many throw: the append itself has succeeded. */
  private tellCommitted(recorded: RecordedEvent[]) {
    for (const listener of this.committedListeners) {
      try {
        listener(recorded);
      } catch {
        // A listener's failure is its own; the tailers still learn of the commit.
      }
    }
  }

  /** Nothing was written: either the key is taken, or the stream is elsewhere. */
  private async whyNothingWasWritten(
    streamId: string,
    expectedVersion: ExpectedVersion,
    idempotency: IdempotencyKey | undefined,
  ): Promise<AppendResult> {
    const earlier = idempotency && (await this.findKeyedCommand(idempotency.scope, idempotency.key));
    if (earlier) {
      const nextExpectedVersion = earlier.events.at(-1)?.streamPosition ?? 0;
      return { nextExpectedVersion, events: earlier.events, duplicate: true };
    }
    throw new ConcurrencyConflict(streamId, expectedVersion, await this.streamVersion(streamId));
  }

  private async appendNothing(streamId: string, expectedVersion: ExpectedVersion): Promise<AppendResult> {
    const version = await this.streamVersion(streamId);
    const expected = expectedVersion === 'no_stream' ? 0 : expectedVersion;
    if (expected !== 'any' && expected !== version) {
      throw new ConcurrencyConflict(streamId, expectedVersion, version);
    }
    return { nextExpectedVersion: version, events: [], duplicate: false };
  }
}

/**
 * The transaction the statements behind an append run in, sent last before COMMIT: the append's own, unless
 * something ended it on the connection meanwhile. postgres.js hands a connection whose session died to the
 * next user once it has connected again, while a user of the dead session may still send on it (a ROLLBACK
 * of its own transaction landing in another's).
 */
const stillTheAppends = (tx: TransactionSql) =>
  tx<{ transactionId: string | null }[]>`SELECT pg_current_xact_id_if_assigned()::text AS "transactionId"`;

/**
 * An append whose transaction was ended under it before its COMMIT: what it stored is not known, whatever
 * COMMIT answered, as after a connection lost at COMMIT.
 */
export class AppendTransactionLost extends Error {
  constructor() {
    super('The append’s transaction ended before its COMMIT: what it stored is not known.');
  }
}

/**
 * The claim in appendToStream makes a stream race a claim of nothing; a unique violation on the stream or
 * its positions can still surface if rows were written around the store, and means the same.
 */
function isStreamRace(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, constraint_name: constraint } = error as { code?: unknown; constraint_name?: unknown };
  return code === '23505' && (constraint === 'streams_pkey' || constraint === 'events_pkey');
}
