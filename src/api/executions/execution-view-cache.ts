const MAX_VIEWS = 2_000;
/** The characters of JSON the kept views may hold in all, and at most one of them: a user decides their size. */
const MAX_KEPT_CHARS = 32 * 1024 * 1024;
const MAX_VIEW_CHARS = 2 * 1024 * 1024;
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
  private chars = 0;

  constructor(
    private readonly mostChars = MAX_KEPT_CHARS,
    private readonly largestChars = MAX_VIEW_CHARS,
  ) {}

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
    this.drop(executionId);
    // Too large to keep: every poll of it reads it again, as without keeping.
    if (view.body.length > this.largestChars) return;
    for (const oldest of this.views.keys()) {
      if (this.views.size < MAX_VIEWS && this.chars + view.body.length <= this.mostChars) break;
      this.drop(oldest);
    }
    this.views.set(executionId, { userId, ...view });
    this.chars += view.body.length;
  }

  invalidate(executionId: string) {
    this.drop(executionId);
    this.invalidatedAt.set(executionId, ++this.clock);
    if (this.invalidatedAt.size > MAX_INVALIDATIONS) {
      this.invalidatedAt.clear();
      this.floor = this.clock;
    }
  }

  private drop(executionId: string) {
    const kept = this.views.get(executionId);
    if (kept === undefined) return;
    this.views.delete(executionId);
    this.chars -= kept.body.length;
  }
}
