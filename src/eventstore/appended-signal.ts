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
    else this.trailing = setTimeout(() => this.notify(), wait);
  }

  private notify() {
    this.trailing = undefined;
    this.lastSentAt = performance.now();
    // A lost hint costs other processes at most their poll interval: never fail an append for it.
    this.sql.notify(EVENTS_APPENDED_CHANNEL, this.origin).catch(() => {});
  }
}
