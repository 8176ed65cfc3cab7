import type { FeedPage } from './read-all';
import type { Checkpoint, EventsListener, RecordedEvent } from './types';

/** What a tailer needs of the store. */
export interface TailedLog {
  readFeed(options: { after: Checkpoint | null; limit: number }): Promise<FeedPage>;
  headCheckpoint(): Promise<Checkpoint | null>;
  watchAppends(wake: () => void): Promise<() => Promise<void>>;
}

export interface TailOptions {
  /** Where to begin: after this checkpoint, from the start (null), or after what is readable now. */
  from: Checkpoint | null | 'now';
  /** The backstop when no wake-up arrives. */
  pollMs?: number;
  batchSize?: number;
  /** Read failures are retried on the next wake-up; this only reports them. */
  onError?: (error: unknown) => void;
}

/**
 * First look-again delay while committed events wait behind an older transaction (usually a few ms: any
 * write on the server, in any database, holds the horizon); it doubles up to pollMs while they keep waiting.
 */
const HELD_BACK_FIRST_RETRY_MS = 1;

/**
 * Follows the gap-safe feed of every stream and hands each event to the listeners exactly once, in log
 * order. One read runs at a time; wake-ups during a read (local commits, NOTIFY from other processes, the
 * poll) make it read again afterwards, so none is lost and none runs reads side by side.
 */
export class LogTailer {
  private readonly listeners = new Set<EventsListener>();
  private readonly pollMs: number;
  private readonly batchSize: number;
  private position: Checkpoint | null = null;
  private positioned = false;
  private running = false;
  private reading: Promise<void> | undefined;
  private readAgain = false;
  private stopWatching: (() => Promise<void>) | undefined;
  private poll: NodeJS.Timeout | undefined;
  private lookAgain: NodeJS.Timeout | undefined;
  private heldBackDelay = HELD_BACK_FIRST_RETRY_MS;
  /** The last read failed (the database away, say): no event reaches the listeners until one succeeds. */
  private failing = false;
  /** Reads begun so far; `readNow` waits for one begun after its call. */
  private readsBegun = 0;
  private readonly readWaiters: { after: number; done: () => void }[] = [];

  constructor(
    private readonly log: TailedLog,
    private readonly options: TailOptions,
  ) {
    this.pollMs = options.pollMs ?? 500;
    this.batchSize = options.batchSize ?? 500;
  }

  /** `listener` gets each batch in order; returns the way to remove it. */
  onEvents(listener: EventsListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The checkpoint of the last event delivered (or the starting point). */
  get checkpoint(): Checkpoint | null {
    return this.position;
  }

  /** Listening, and its last read of the log succeeded: what is committed reaches the listeners. */
  get live(): boolean {
    return this.running && !this.failing;
  }

  /** Resolves once listening: from then on every later commit reaches the listeners. A restart resumes. */
  async start(): Promise<void> {
    if (this.running) return;
    if (!this.positioned) {
      const { from } = this.options;
      this.position = from === 'now' ? await this.log.headCheckpoint() : from;
      this.positioned = true;
    }
    this.running = true;
    try {
      this.stopWatching = await this.log.watchAppends(this.wake);
    } catch (error) {
      this.running = false;
      throw error;
    }
    this.poll = setInterval(this.wake, this.pollMs);
    this.poll.unref();
    this.wake();
  }

  /** No listener is called after this resolves. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    clearInterval(this.poll);
    clearTimeout(this.lookAgain);
    const stopWatching = this.stopWatching;
    this.stopWatching = undefined;
    await Promise.allSettled([stopWatching?.(), this.reading]);
    this.readDone(Number.POSITIVE_INFINITY);
  }

  /**
   * Reads the log now (after a read under way, once more) and resolves when that read is done: whatever was
   * readable when called has then reached the listeners. A read that fails is waited out until one succeeds.
   * Stopped, it resolves at once.
   */
  readNow(): Promise<void> {
    if (!this.running) return Promise.resolve();
    const after = this.readsBegun;
    const read = new Promise<void>((done) => this.readWaiters.push({ after, done }));
    this.wake();
    return read;
  }

  private readDone(read: number) {
    for (let i = this.readWaiters.length - 1; i >= 0; i--) {
      const waiter = this.readWaiters[i]!;
      if (waiter.after >= read) continue;
      this.readWaiters.splice(i, 1);
      waiter.done();
    }
  }

  private readonly wake = () => {
    if (!this.running) return;
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = this.readUntilCaughtUp().finally(() => {
      this.reading = undefined;
      // A wake-up can land after the last loop check and before this: it must not wait for the poll.
      if (this.readAgain) this.wake();
    });
  };

  private async readUntilCaughtUp(): Promise<void> {
    do {
      this.readAgain = false;
      const read = ++this.readsBegun;
      try {
        const heldBack = await this.readAvailable();
        this.failing = false;
        if (heldBack) this.scheduleLookAgain();
        else this.heldBackDelay = HELD_BACK_FIRST_RETRY_MS;
        this.readDone(read);
      } catch (error) {
        this.failing = true;
        this.options.onError?.(error);
        this.readAgain = false; // the poll retries: a failing database must not be hammered by every wake-up
        return;
      }
    } while (this.readAgain && this.running);
  }

  /** Delivers everything readable now; true when committed events still wait beyond the horizon. */
  private async readAvailable(): Promise<boolean> {
    for (;;) {
      const page = await this.log.readFeed({ after: this.position, limit: this.batchSize });
      if (!this.running) return false;
      if (page.events.length > 0) {
        this.position = page.checkpoint;
        this.deliver(page.events);
      }
      if (page.events.length < this.batchSize) return page.heldBack;
    }
  }

  private deliver(events: RecordedEvent[]) {
    for (const listener of this.listeners) {
      try {
        listener(events);
      } catch (error) {
        // The checkpoint has moved on: one listener's failure must not replay events to the others.
        this.options.onError?.(error);
      }
    }
  }

  private scheduleLookAgain() {
    if (this.lookAgain) return;
    this.lookAgain = setTimeout(() => {
      this.lookAgain = undefined;
      this.wake();
    }, this.heldBackDelay);
    this.lookAgain.unref();
    this.heldBackDelay = Math.min(this.heldBackDelay * 2, this.pollMs);
  }
}
