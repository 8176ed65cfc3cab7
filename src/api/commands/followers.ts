import { LRUCache } from 'lru-cache';
import type { EventStore, LogTailer, RecordedEvent } from '../../eventstore';
import type { EventReaction } from './command-handler';

/**
 * How a follower hears of events, in one word:
 * - `transaction`: writes added to the transaction of the command whose events call for them (a job, a
 *   mail): they commit with the events or not at all;
 * - `commit`: this process's own commits, at once after COMMIT;
 * - `log`: every process's commits, from this process's reader of the log, in log order, each once;
 * - `first`: every process's commits, each once, at the first of the two ways this process hears of it
 *   (its own commit, else the log);
 * - `every`: both ways, each copy with where it came from (the websocket pushes, which pick by position).
 */
export type Delivery = 'transaction' | 'commit' | 'log' | 'first' | 'every';

/** Where a copy of events came from: this process's commit, or the log. */
export type Source = 'commit' | 'log';

type Handler = (events: RecordedEvent[], from: Source) => void;

/** A follower as listed: its name and how it hears. */
export interface Follower {
  name: string;
  delivery: Delivery;
}

/**
 * The events an event acted on in `first` delivery are remembered by stream and position: the second copy of
 * one this process commits comes from the log within moments, so the latest 10,000 are plenty.
 */
const FIRST_SIGHT_MEMORY = 10_000;

/**
 * Everything that follows the events, registered in one place with its delivery: the aggregates' plugins
 * name theirs (`follow`), and `list()` says who follows, in the order they hear. The two ways this process
 * hears of a commit (its own, and the log) are subscribed to once, here, and `first` is told each event once.
 */
export class Followers {
  private readonly followers: Follower[] = [];
  private readonly handlers: Record<Exclude<Delivery, 'transaction'>, Handler[]> = {
    commit: [],
    log: [],
    first: [],
    every: [],
  };
  private readonly seen = new LRUCache<string, true>({ max: FIRST_SIGHT_MEMORY });
  private readonly stops: (() => void)[];

  constructor(
    store: Pick<EventStore, 'onCommitted'>,
    feed: Pick<LogTailer, 'onEvents'>,
    private readonly commands: { react(reaction: EventReaction): void },
  ) {
    this.stops = [
      store.onCommitted((events) => this.heard(events, 'commit')),
      feed.onEvents((events) => this.heard(events, 'log')),
    ];
  }

  /** Writes in the transaction of every command from now on (see EventReaction). */
  follow(name: string, delivery: 'transaction', react: EventReaction): void;
  /** Told of events as `delivery` says. */
  follow(name: string, delivery: Exclude<Delivery, 'transaction'>, handle: Handler): void;
  follow(name: string, delivery: Delivery, handler: EventReaction | Handler): void {
    this.followers.push({ name, delivery });
    if (delivery === 'transaction') this.commands.react(handler as EventReaction);
    else this.handlers[delivery].push(handler as Handler);
  }

  /** Who follows the events, and how: the one list. */
  list(): readonly Follower[] {
    return this.followers;
  }

  /** Stops hearing of commits (the server closes). */
  stop() {
    for (const stop of this.stops) stop();
  }

  /**
   * A copy of events: `first` followers get those not seen before, then `every` followers the copy, then
   * those of its own way. Each follower's failure is its own: the others still hear.
   */
  private heard(events: RecordedEvent[], from: Source) {
    const fresh = events.filter((event) => {
      const key = `${event.streamId}@${event.streamPosition}`;
      if (this.seen.has(key)) return false;
      this.seen.set(key, true);
      return true;
    });
    const tell = (handlers: Handler[], told: RecordedEvent[]) => {
      if (told.length === 0) return;
      for (const handle of handlers) {
        try {
          handle(told, from);
        } catch {
          // A follower's failure is its own.
        }
      }
    };
    tell(this.handlers.first, fresh);
    tell(this.handlers.every, events);
    tell(this.handlers[from], events);
  }
}
