import { LRUCache } from 'lru-cache';
import { may } from '../access';

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
  private readonly views: LRUCache<string, KeptView & { userId: string }>;

  constructor(mostChars = MAX_KEPT_CHARS, largestChars = MAX_VIEW_CHARS) {
    this.views = new LRUCache<string, KeptView & { userId: string }>({
      max: MAX_VIEWS,
      maxSize: mostChars,
      maxEntrySize: largestChars,
      sizeCalculation: (view) => Math.max(1, view.body.length),
    });
  }

  /** The view of the user's execution, when one is kept. */
  get(executionId: string, userId: string): KeptView | undefined {
    const view = this.views.get(executionId);
    return view && may(userId, 'read', 'execution', view.userId)
      ? { body: view.body, version: view.version }
      : undefined;
  }

  /** Taken before reading a view from the database. */
  ticket(): number {
    return ++this.clock;
  }

  remember(executionId: string, userId: string, ticket: number, view: KeptView) {
    if (ticket <= this.floor || (this.invalidatedAt.get(executionId) ?? 0) >= ticket) return;
    // Too large to keep: every poll of it reads it again, as without keeping.
    if (view.body.length > this.views.maxEntrySize) this.views.delete(executionId);
    else this.views.set(executionId, { userId, ...view });
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
