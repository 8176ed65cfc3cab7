/** How much the kept states may hold in all, by `approximateSize`; the least recently used go first. */
const MOST_KEPT_BYTES = 64 * 1024 * 1024;
/** A state larger than this is not kept: its next command reads its stream, as without keeping. */
const LARGEST_KEPT_BYTES = 4 * 1024 * 1024;

interface Kept {
  state: unknown;
  version: number;
  bytes: number;
}

/**
 * The state of each aggregate this process last decided on or read, by stream, and the version it reflects,
 * so that the next command on it needs no read of its stream. A kept state is only ever a first try: an
 * append at its version fails if the stream moved on, and the command is decided again on the stream as
 * read. Events another process appended drop the kept state when the log tailer sees them, so that such a
 * command rarely pays for a refused append. A user controls how large an execution's state grows (its
 * results), so what is kept is bounded by size, not by count.
 */
export class KeptStates {
  private readonly states = new Map<string, Kept>();
  private bytes = 0;

  constructor(
    private readonly mostBytes = MOST_KEPT_BYTES,
    private readonly largestBytes = LARGEST_KEPT_BYTES,
  ) {}

  get<State>(streamId: string): { state: State; version: number } | undefined {
    const kept = this.states.get(streamId);
    if (kept === undefined) return undefined;
    // Used again: the most recently used are kept longest.
    this.states.delete(streamId);
    this.states.set(streamId, kept);
    return { state: kept.state as State, version: kept.version };
  }

  /** Kept unless an equal or later version is kept already (commands of one stream may end out of order). */
  keep(streamId: string, loaded: { state: unknown; version: number }) {
    const kept = this.states.get(streamId);
    if (kept !== undefined && kept.version >= loaded.version) return;
    this.drop(streamId);
    const bytes = approximateSize(loaded.state, this.largestBytes);
    if (bytes > this.largestBytes) return;
    for (const oldest of this.states.keys()) {
      if (this.bytes + bytes <= this.mostBytes) break;
      this.drop(oldest);
    }
    this.states.set(streamId, { state: loaded.state, version: loaded.version, bytes });
    this.bytes += bytes;
  }

  /** An event at `position` was seen in the log: a state kept from before it is out of date. */
  seen(streamId: string, position: number) {
    const kept = this.states.get(streamId);
    if (kept !== undefined && kept.version < position) this.drop(streamId);
  }

  /** How many states, and their approximate size in all. */
  get held() {
    return { states: this.states.size, bytes: this.bytes };
  }

  private drop(streamId: string) {
    const kept = this.states.get(streamId);
    if (kept === undefined) return;
    this.states.delete(streamId);
    this.bytes -= kept.bytes;
  }
}

/**
 * About how many bytes a JSON-like value holds (two a character of its strings, eight a number or
 * reference), counted until past `limit`: enough to bound memory, cheap for the small states most are.
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
    } else {
      for (const key in item) {
        bytes += 2 * key.length + 16;
        pending.push((item as Record<string, unknown>)[key]);
      }
    }
  }
  return bytes;
}
