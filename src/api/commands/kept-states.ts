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
    const bytes = approximateSize(loaded.state, this.states.maxEntrySize, kept?.state);
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
 * The sizes of objects and arrays counted before, by object: a state's results and runs are shared by the
 * states that follow it (evolve makes a new object only for a changed one), so keeping the next state of a
 * long execution counts only its new objects.
 */
const objectSizes = new WeakMap<object, number>();

/**
 * About how many bytes a JSON-like value holds (two a character of its strings, eight a number or
 * reference), counted until past `limit`: enough to bound memory, cheap for the small states most are. An
 * object or array inside the value is counted whole once and its size remembered (objectSizes). `before`,
 * the state this one followed: an array of the value is counted from the same field's array there, by the
 * elements that differ (a long execution's next state adds a result to 5,000, and compares references
 * instead of looking each one up).
 */
export function approximateSize(value: unknown, limit: number, before?: unknown): number {
  if (Array.isArray(value)) return arraySize(value, limit, Array.isArray(before) ? before : undefined);
  if (value === null || typeof value !== 'object') return sizeOf(value);
  const earlier = before !== null && typeof before === 'object' ? (before as Record<string, unknown>) : {};
  let bytes = 0;
  for (const key in value) {
    bytes += 2 * key.length + 16;
    const child = (value as Record<string, unknown>)[key];
    const previous = earlier[key];
    bytes += Array.isArray(child)
      ? arraySize(child, limit - bytes, Array.isArray(previous) ? previous : undefined)
      : sizeOf(child);
    if (bytes > limit) break;
  }
  return bytes;
}

/** A value inside a state: an object or array counted once, whole. */
function sizeOf(item: unknown): number {
  if (typeof item === 'string') return 2 * item.length + 8;
  if (item === null || typeof item !== 'object') return 8;
  if (Array.isArray(item)) return arraySize(item, Number.POSITIVE_INFINITY);
  let size = objectSizes.get(item);
  if (size === undefined) {
    size = approximateSize(item, Number.POSITIVE_INFINITY);
    objectSizes.set(item, size);
  }
  return size;
}

/** An array's references and its elements; remembered only when counted whole (not stopped at `limit`). */
function arraySize(array: readonly unknown[], limit: number, previous?: readonly unknown[]): number {
  const known = objectSizes.get(array);
  if (known !== undefined) return known;
  const previousBytes = previous && objectSizes.get(previous);
  let bytes: number;
  if (previous && previousBytes !== undefined) {
    bytes = previousBytes + 8 * (array.length - previous.length);
    const common = Math.min(array.length, previous.length);
    for (let i = 0; i < common; i++)
      if (array[i] !== previous[i]) bytes += sizeOf(array[i]) - sizeOf(previous[i]);
    for (let i = common; i < array.length; i++) bytes += sizeOf(array[i]);
    for (let i = common; i < previous.length; i++) bytes -= sizeOf(previous[i]);
  } else {
    bytes = 8 * (array.length + 1);
    for (let i = 0; i < array.length && bytes <= limit; i++) bytes += sizeOf(array[i]);
    if (bytes > limit) return bytes;
  }
  objectSizes.set(array, bytes);
  return bytes;
}
