import type { Sql, TransactionSql } from 'postgres';
import { appendToStream, type AppendToStream } from './append-to-stream';
import { AppendedSignal, EVENTS_APPENDED_CHANNEL } from './appended-signal';
import { ConcurrencyConflict } from './concurrency-conflict';
import { findCommand } from './find-command';
import { headCheckpoint } from './head-checkpoint';
import { hasHeldBackEvents } from './held-back-events';
import { LogTailer, type TailOptions } from './log-tailer';
import { type FeedPage, readFeed } from './read-all';
import { readStream } from './read-stream';
import { streamVersion } from './stream-version';
import type { AppendResult, Checkpoint, ExpectedVersion, NewEvent, RecordedEvent } from './types';

export interface AppendOptions {
  /**
   * Runs in the append's transaction after the events are inserted (inline projections): when it throws,
   * the append is rolled back and the error reaches the caller.
   */
  inTransaction?: (tx: TransactionSql, recorded: RecordedEvent[]) => Promise<void>;
}

/** The event log on PostgreSQL: streams guarded by their version, and one gap-safe feed of everything. */
export class EventStore {
  private readonly signal: AppendedSignal;

  constructor(private readonly sql: Sql) {
    this.signal = new AppendedSignal(sql);
  }

  /**
   * Appends `events` to the stream if it is at `expectedVersion`, else throws ConcurrencyConflict. When the
   * first event's metadata carries a commandId that is already in the log, nothing is appended and the
   * earlier events come back with `duplicate: true`, also when two identical commands race.
   */
  async append(
    streamId: string,
    streamType: string,
    expectedVersion: ExpectedVersion,
    events: NewEvent[],
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    const commandId = events[0]?.metadata?.commandId;
    if (events.length === 0) return this.appendNothing(streamId, expectedVersion);
    const append: AppendToStream = { streamId, streamType, expectedVersion, events, commandId };
    let recorded: RecordedEvent[];
    try {
      recorded = await this.write(append, options.inTransaction);
    } catch (error) {
      if (!isStreamRace(error)) throw error;
      recorded = [];
    }
    if (recorded.length === 0) return this.whyNothingWasWritten(streamId, expectedVersion, commandId);
    this.signal.committed();
    return { nextExpectedVersion: recorded.at(-1)!.streamPosition, events: recorded, duplicate: false };
  }

  /** The events a command appended, or null when it has not been appended. */
  findCommand(commandId: string): Promise<RecordedEvent[] | null> {
    return findCommand(this.sql, commandId);
  }

  readStream(streamId: string, options: { after?: number; limit?: number } = {}) {
    return readStream(this.sql, streamId, options);
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
  readFeed(options: { after: Checkpoint | null; limit: number }): Promise<FeedPage> {
    return readFeed(this.sql, options);
  }

  headCheckpoint(): Promise<Checkpoint | null> {
    return headCheckpoint(this.sql);
  }

  streamVersion(streamId: string): Promise<number> {
    return streamVersion(this.sql, streamId);
  }

  /** Committed events not yet readable through `readAll` because an older transaction is still running. */
  hasHeldBackEvents(): Promise<boolean> {
    return hasHeldBackEvents(this.sql);
  }

  /** A reader of the whole log in order; call `start()` on it. */
  tail(options: TailOptions): LogTailer {
    return new LogTailer(this, options);
  }

  /**
   * Calls `wake` after this store's commits and on other processes' NOTIFY (and whenever LISTEN is
   * re-established after a lost connection, since notifications may have been missed). Returns the way to stop.
   */
  async watchAppends(wake: () => void): Promise<() => Promise<void>> {
    const stopLocal = this.signal.onAppended(wake);
    try {
      const listening = await this.sql.listen(EVENTS_APPENDED_CHANNEL, wake, wake);
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
   * A single statement is already a transaction, so only a callback, or an 'any' append that must be
   * idempotent, needs an explicit one.
   */
  private write(
    append: AppendToStream,
    inTransaction: AppendOptions['inTransaction'],
  ): Promise<RecordedEvent[]> {
    const guardCommand = append.expectedVersion === 'any' && append.commandId !== undefined;
    if (!inTransaction && !guardCommand) return appendToStream(this.sql, append);
    return this.transaction(async (tx) => {
      // With 'any' no stream version serialises two identical commands: a lock on the command id does, and
      // the append's own check (a fresh snapshot after the lock) then sees the first one's events.
      if (guardCommand) {
        await tx`SELECT pg_advisory_xact_lock(${COMMAND_LOCK_SPACE}, hashtext(${append.commandId!}))`;
      }
      const recorded = await appendToStream(tx, append);
      if (recorded.length > 0 && inTransaction) await inTransaction(tx, recorded);
      return recorded;
    });
  }

  /**
   * A transaction on a connection of its own whose BEGIN travels with the first statement instead of
   * waiting for its own answer (postgres.js's `begin` waits): one round trip less on every command. The
   * connection is idle and ours alone, so BEGIN cannot fail unless the connection does, and then so do
   * the statements behind it.
   */
  private async transaction<T>(work: (tx: TransactionSql) => Promise<T>): Promise<T> {
    const connection = await this.sql.reserve();
    try {
      const begun = connection`BEGIN`.execute();
      // Handled now: a failed BEGIN answers before anything waits for it, and must not go unhandled.
      begun.catch(() => {});
      let result: T;
      try {
        // A reserved connection runs the same statements as a transaction's; only savepoints are missing.
        result = await work(connection as unknown as TransactionSql);
        await begun;
      } catch (error) {
        await connection`ROLLBACK`;
        throw error;
      }
      await connection`COMMIT`;
      return result;
    } finally {
      connection.release();
    }
  }

  /** Nothing was claimed: either the command is already in the log, or the stream is elsewhere. */
  private async whyNothingWasWritten(
    streamId: string,
    expectedVersion: ExpectedVersion,
    commandId: string | undefined,
  ): Promise<AppendResult> {
    const earlier = commandId === undefined ? null : await this.findCommand(commandId);
    if (earlier) {
      const inStream = earlier.filter((event) => event.streamId === streamId);
      const nextExpectedVersion = inStream.at(-1)?.streamPosition ?? (await this.streamVersion(streamId));
      return { nextExpectedVersion, events: earlier, duplicate: true };
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

/** Two-key advisory locks do not overlap one-key ones (the migration lock); this class is for commands. */
const COMMAND_LOCK_SPACE = 0x65_76_73; // 'evs'

/**
 * The claim in appendToStream makes a stream race a claim of nothing; a unique violation on the stream or
 * its positions can still surface if rows were written around the store, and means the same.
 */
function isStreamRace(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, constraint_name: constraint } = error as { code?: unknown; constraint_name?: unknown };
  return code === '23505' && (constraint === 'streams_pkey' || constraint === 'events_pkey');
}
