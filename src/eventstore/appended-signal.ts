import { randomUUID } from 'node:crypto';
import type { Sql } from 'postgres';

export const EVENTS_APPENDED_CHANNEL = 'events_appended';

/**
 * Tells tailers that events were committed: this process's at once, other processes through a NOTIFY that
 * names this signal (`origin`), so that its own listeners, woken already, can leave it unread. NOTIFY takes
 * a cluster-wide lock at commit, so it is sent on its own (never inside an append) and at most once per
 * `intervalMs`; a commit inside the interval is covered by one trailing NOTIFY, always sent after that commit.
 */
export class AppendedSignal {
  /** What this signal's NOTIFY carries. */
  readonly origin = randomUUID();
  private readonly listeners = new Set<() => void>();
  private lastSentAt = Number.NEGATIVE_INFINITY;
  private trailing: NodeJS.Timeout | undefined;
  /** Settles once the latest NOTIFY (sent or waiting as the trailing one) has been answered. */
  private latest: Promise<void> = Promise.resolve();

  constructor(
    private readonly sql: Sql,
    private readonly intervalMs = 20,
  ) {}

  /** `listener` runs after every commit of this process's store; returns the way to stop it. */
  onAppended(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Every listener runs, however many throw: the NOTIFY still goes out and one tailer cannot starve another. */
  committed(): void {
    for (const listener of this.listeners) {
      try {
        listener();
      } catch {
        // A listener's failure is its own; the others still need the wake-up.
      }
    }
    if (this.trailing) return;
    const wait = this.lastSentAt + this.intervalMs - performance.now();
    if (wait <= 0) this.notify();
    else
      this.latest = new Promise((resolve) => {
        this.trailing = setTimeout(() => resolve(this.notify()), wait);
      });
  }

  /** Resolves once every commit so far has been announced: its NOTIFY sent (or failed to send). */
  async announced(): Promise<void> {
    let latest: Promise<void>;
    do {
      latest = this.latest;
      await latest;
    } while (latest !== this.latest);
  }

  private notify(): Promise<void> {
    this.trailing = undefined;
    this.lastSentAt = performance.now();
    // A lost hint costs other processes at most their poll interval: never fail an append for it.
    this.latest = this.sql.notify(EVENTS_APPENDED_CHANNEL, this.origin).then(
      () => {},
      () => {},
    );
    return this.latest;
  }
}
