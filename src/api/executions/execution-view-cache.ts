const MAX_VIEWS = 2_000;
const MAX_INVALIDATIONS = 20_000;

/** A view as JSON text, and the stream version it reflects. */
export interface KeptView {
  body: string;
  version: number;
}

/**
 * Serialized execution views (what GET /api/executions/:id answers), each kept until an event of its
 * execution is seen: a command of this process invalidates at once, another process's through the log
 * tailer. Polling then costs no query while nothing changes.
 *
 * A view read from the database is kept only if no invalidation of its execution happened since the
 * read began (its ticket), so a read that raced a command can never be kept after that command.
 */
export class ExecutionViewCache {
  private clock = 0;
  /** Reads with a ticket at or below this began before invalidations that are no longer remembered. */
  private floor = 0;
  private readonly invalidatedAt = new Map<string, number>();
  private readonly views = new Map<string, KeptView & { userId: string }>();

  /** The view of the user's execution, when one is kept. */
  get(executionId: string, userId: string): KeptView | undefined {
    const view = this.views.get(executionId);
    return view?.userId === userId ? { body: view.body, version: view.version } : undefined;
  }

  /** Taken before reading a view from the database. */
  ticket(): number {
    return ++this.clock;
  }

  remember(executionId: string, userId: string, ticket: number, view: KeptView) {
    if (ticket <= this.floor || (this.invalidatedAt.get(executionId) ?? 0) >= ticket) return;
    this.views.delete(executionId);
    if (this.views.size >= MAX_VIEWS) this.views.delete(this.views.keys().next().value!);
    this.views.set(executionId, { userId, ...view });
  }

  invalidate(executionId: string) {
    this.views.delete(executionId);
    this.invalidatedAt.set(executionId, ++this.clock);
    if (this.invalidatedAt.size > MAX_INVALIDATIONS) {
      this.invalidatedAt.clear();
      this.floor = this.clock;
    }
  }
}
