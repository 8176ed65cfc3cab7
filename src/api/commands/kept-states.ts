import { LRUCache } from 'lru-cache';

/** How much the kept states may hold in all, by `approximateSize`; the least recently used go first. */
const MOST_KEPT_BYTES = 64 * 1024 * 1024;
/**
 * A state larger than this is not kept: its next command reads its stream, as without keeping. An execution
 * of 5,000 results of the offline model's size (its snapshot 4.1 MB of JSON) counts about 10 MB, and at 4 MB
 * was never kept: each of its commands read and parsed its snapshot.
 */
const LARGEST_KEPT_BYTES = 16 * 1024 * 1024;

interface Kept {
  state: unknown;
  version: number;
  bytes: number;
  /** A later event of its stream was seen: no first try any more, yet a start to fold the later events onto. */
  behind: boolean;
}

/**
 * The state of each aggregate this process last decided on or read, by stream, and the version it reflects,
 * so that the next command on it needs no read of its stream. A kept state is only ever a first try: an
 * append at its version fails if the stream moved on, and the command is decided again on the stream as
 * read. Events another process appended mark the kept state behind when the log tailer sees them, so that
 * such a command rarely pays for a refused append: it reads the events after the kept version and folds them
 * onto it (behindOrNot), which costs what those events cost, not what the whole state does. A user controls how large an execution's state grows (its
 * results), so what is kept is bounded by size, not by count.
 */
export class KeptStates {
  private readonly states: LRUCache<string, Kept>;

  constructor(mostBytes = MOST_KEPT_BYTES, largestBytes = LARGEST_KEPT_BYTES) {
    this.states = new LRUCache<string, Kept>({
      maxSize: mostBytes,
      maxEntrySize: largestBytes,
      sizeCalculation: (kept) => kept.bytes,
    });
  }

  /** The kept state unless a later event of its stream was seen, now the most recently used (kept longest). */
  get<State>(streamId: string): { state: State; version: number } | undefined {
    const kept = this.states.get(streamId);
    return kept === undefined || kept.behind
      ? undefined
      : { state: kept.state as State, version: kept.version };
  }

  /**
   * The kept state even when a later event of its stream was seen: a state of its stream as of its version,
   * for a reader to fold the events after it onto.
   */
  behindOrNot<State>(streamId: string): { state: State; version: number } | undefined {
    const kept = this.states.get(streamId);
    return kept === undefined ? undefined : { state: kept.state as State, version: kept.version };
  }

  /** Kept unless an equal or later version is kept already (commands of one stream may end out of order). */
  keep(streamId: string, loaded: { state: unknown; version: number }) {
    const kept = this.states.peek(streamId);
    if (kept !== undefined && kept.version >= loaded.version) return;
    const bytes = approximateSize(loaded.state, this.states.maxEntrySize);
    // One too large is not kept (and an older one of the stream goes): its next command reads its stream.
    if (bytes > this.states.maxEntrySize) this.states.delete(streamId);
    else this.states.set(streamId, { state: loaded.state, version: loaded.version, bytes, behind: false });
  }

  /** An event at `position` was seen in the log: a state kept from before it is behind. */
  seen(streamId: string, position: number) {
    const kept = this.states.peek(streamId);
    if (kept !== undefined && kept.version < position) kept.behind = true;
  }

  /** How many states, and their approximate size in all. */
  get held() {
    return { states: this.states.size, bytes: this.states.calculatedSize };
  }
}

/**
 * The sizes of objects counted before, by object: a state's results and runs are shared by the states that
 * follow it (evolve makes a new object only for a changed one), so keeping the next state of a long
 * execution counts only its new objects, and walks its arrays without walking their elements again.
 */
const objectSizes = new WeakMap<object, number>();

/**
 * About how many bytes a JSON-like value holds (two a character of its strings, eight a number or
 * reference), counted until past `limit`: enough to bound memory, cheap for the small states most are. An
 * object inside the value is counted whole once and its size remembered (objectSizes).
 */
export function approximateSize(value: unknown, limit: number): number {
  let bytes = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0 && bytes <= limit) {
    const item = pending.pop();
    if (typeof item === 'string') bytes += 2 * item.length + 8;
    else if (item === null || typeof item !== 'object') bytes += 8;
    else if (Array.isArray(item)) {
      bytes += 8 * (item.length + 1);
      if (bytes <= limit) for (const element of item) pending.push(element);
    } else if (item !== value) {
      let size = objectSizes.get(item);
      if (size === undefined) {
        size = approximateSize(item, Number.POSITIVE_INFINITY);
        objectSizes.set(item, size);
      }
      bytes += size;
    } else {
      for (const key in item) {
        bytes += 2 * key.length + 16;
        pending.push((item as Record<string, unknown>)[key]);
      }
    }
  }
  return bytes;
}
