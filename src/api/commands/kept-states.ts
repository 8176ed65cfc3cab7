/** How many aggregates' states a process keeps; the least recently used goes first. */
const MOST_KEPT = 500;

/**
 * The state of each aggregate this process last decided on or read, by stream, and the version it reflects,
 * so that the next command on it needs no read of its stream. A kept state is only ever a first try: an
 * append at its version fails if the stream moved on, and the command is decided again on the stream as
 * read. Events another process appended drop the kept state when the log tailer sees them, so that such a
 * command rarely pays for a refused append.
 */
export class KeptStates {
  private readonly states = new Map<string, { state: unknown; version: number }>();

  get<State>(streamId: string): { state: State; version: number } | undefined {
    const kept = this.states.get(streamId);
    if (kept === undefined) return undefined;
    // Used again: the most recently used are kept longest.
    this.states.delete(streamId);
    this.states.set(streamId, kept);
    return kept as { state: State; version: number };
  }

  /** Kept unless an equal or later version is kept already (commands of one stream may end out of order). */
  keep(streamId: string, loaded: { state: unknown; version: number }) {
    const kept = this.states.get(streamId);
    if (kept !== undefined && kept.version >= loaded.version) return;
    this.states.delete(streamId);
    if (this.states.size >= MOST_KEPT) this.states.delete(this.states.keys().next().value!);
    this.states.set(streamId, loaded);
  }

  /** An event at `position` was seen in the log: a state kept from before it is out of date. */
  seen(streamId: string, position: number) {
    const kept = this.states.get(streamId);
    if (kept !== undefined && kept.version < position) this.states.delete(streamId);
  }

  get size() {
    return this.states.size;
  }
}
