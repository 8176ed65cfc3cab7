import type { SessionStore } from '@fastify/session';
import type { Session } from 'fastify';
import type { Sql } from 'postgres';

type Done = (error?: unknown) => void;

/** A session as stored: what @fastify/session writes, with the fields this app keeps in it. */
export interface StoredSession {
  readonly userId?: string;
  /** When the session's expiry was last pushed forward (ms since epoch). */
  readonly renewedAt?: number;
  readonly cookie: Readonly<{
    expires?: string | Date | null;
    originalMaxAge?: number | null;
    path?: string;
    domain?: string | null;
    secure?: boolean | null;
    httpOnly?: boolean;
    sameSite?: 'lax' | 'strict' | 'none' | boolean | null;
  }>;
}

/** A session read or written, as text (to hand out copies) and as one object shared by its readers. */
interface Remembered {
  sess: string;
  session: StoredSession;
  /** Reused until then (ms since epoch). */
  until: number;
  expire: number;
}

/** Used when a session has no expiry of its own (a cookie without maxAge). */
const FALLBACK_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * How long a session read from the table is reused without reading it again. Every API call and poll
 * needs the session; this keeps that off the database. A sign-out takes effect at once in the process that
 * handles it, in the others as soon as its NOTIFY arrives; should one be missed, within this time.
 */
export const SESSION_REUSE_MS = 2_000;
const MOST_REMEMBERED = 10_000;

/** Carries the id of each session ended by sign-out to every server process on the database. */
export const SESSIONS_ENDED_CHANNEL = 'sessions_ended';

/** What the websocket hub needs of sessions: hearing of their end, and asking whether they still hold. */
export interface SessionWatch {
  watchEndings(ended: (sid: string) => void, mayHaveMissed: () => void): Promise<() => Promise<void>>;
  expiries(sids: string[]): Promise<Map<string, number>>;
}

/**
 * Sessions in the `sessions(sid, sess, expire)` table, with the callback interface @fastify/session
 * expects. Rows past `expire` are never returned and are deleted by a periodic sweep.
 */
export class PostgresSessionStore implements SessionStore, SessionWatch {
  private sweepTimer: NodeJS.Timeout | undefined;
  private stopForgetting: (() => Promise<void>) | undefined;
  /** Recently read or written sessions, as stored text (each `get` hands out a fresh copy). */
  private readonly recent = new Map<string, Remembered>();
  /**
   * How many times copies were dropped for an ending. A read or write that began before one is not kept: it may
   * hold a session that ended while it was under way.
   */
  private endingsHeard = 0;
  private readonly endingListeners = new Set<(sid: string) => void>();

  constructor(
    private readonly sql: Sql,
    private readonly onSweepError: (error: unknown) => void = () => {},
    private readonly reuseMs = SESSION_REUSE_MS,
    /** The clock a kept copy is judged by (its reuse time and the session's expiry). */
    private readonly now: () => number = Date.now,
  ) {}

  set(sid: string, session: Session, done: Done): void {
    this.write(
      sid,
      session,
      (sess, expire) => this.sql`
        INSERT INTO sessions (sid, sess, expire) VALUES (${sid}, ${sess}::text::jsonb, ${expire})
        ON CONFLICT (sid) DO UPDATE SET sess = excluded.sess, expire = excluded.expire`,
    ).then(() => done(), done);
  }

  get(sid: string, done: (error: unknown, session?: Session | null) => void): void {
    // @fastify/session changes what it is given: it gets a copy of its own.
    const known = this.reused(sid);
    if (known) {
      done(null, JSON.parse(known.sess) as Session);
      return;
    }
    this.load(sid).then((row) => done(null, row && (JSON.parse(row.sess) as Session)), done);
  }

  /**
   * The session as stored, for reading only (shared with every request that reads it while it is reused),
   * or null when there is none or it has expired.
   */
  async read(sid: string): Promise<StoredSession | null> {
    const known = this.reused(sid) ?? (await this.load(sid));
    return known?.session ?? null;
  }

  /**
   * Stores a session pushed forward, only while it still exists: a sign-out in another process at the same
   * moment is not undone. Says whether it was there.
   */
  renew(sid: string, session: StoredSession): Promise<boolean> {
    return this.write(
      sid,
      session,
      (sess, expire) => this.sql`
        UPDATE sessions SET sess = ${sess}::text::jsonb, expire = ${expire} WHERE sid = ${sid} AND expire > now()`,
    );
  }

  /** Writes the session with `statement` and keeps it for reuse; false when the statement touched no row. */
  private async write(
    sid: string,
    session: StoredSession | Session,
    statement: (sess: string, expire: Date) => Promise<{ count: number }>,
  ): Promise<boolean> {
    const expire = expiryOf(session as Session);
    // Sent as text and cast by the server: a jsonb-typed parameter would make postgres.js encode the string again.
    const sess = JSON.stringify(session);
    this.recent.delete(sid);
    const heard = this.endingsHeard;
    const written = await statement(sess, expire);
    if (written.count === 0) return false;
    this.remember(sid, sess, expire.getTime(), heard);
    return true;
  }

  private reused(sid: string): Remembered | undefined {
    const now = this.now();
    const known = this.recent.get(sid);
    return known && known.until > now && known.expire > now ? known : undefined;
  }

  private async load(sid: string): Promise<Remembered | null> {
    // As text: the text is kept beside its parsed copy (see remember).
    const heard = this.endingsHeard;
    const [row] = await this.sql<{ sess: string; expire: Date }[]>`
      SELECT sess::text AS sess, expire FROM sessions WHERE sid = ${sid} AND expire > now()`;
    if (!row) return null;
    return this.remember(sid, row.sess, new Date(row.expire).getTime(), heard);
  }

  /**
   * Sign-out (and the old id at sign-in): gone from the table and announced, when it was there, to every
   * process by a NOTIFY in the same statement, so it is on its way to them before sign-out answers (and a
   * sign-in's never-saved visitor id costs none); listeners in this process hear of it at once.
   */
  destroy(sid: string, done: Done): void {
    this.forget(sid);
    this.sql`
      WITH ended AS (DELETE FROM sessions WHERE sid = ${sid} RETURNING sid)
      SELECT pg_notify(${SESSIONS_ENDED_CHANNEL}, sid) FROM ended`.then((ended) => {
      if (ended.count > 0) this.ended(sid);
      done();
    }, done);
  }

  private ended(sid: string) {
    this.forget(sid);
    for (const listener of this.endingListeners) {
      try {
        listener(sid);
      } catch {
        // One listener's failure must not keep the others from closing what belongs to the session.
      }
    }
  }

  /**
   * Calls `ended` with the id of every session signed out, in this process or another (LISTEN shares the
   * connection the event log's tailer listens on), and `mayHaveMissed` whenever listening is (re-)established,
   * since endings in between were not heard. Returns the way to stop.
   */
  async watchEndings(ended: (sid: string) => void, mayHaveMissed: () => void): Promise<() => Promise<void>> {
    this.endingListeners.add(ended);
    try {
      // Our own NOTIFY comes back here too; the second `ended` for an id finds nothing left to close.
      const listening = await this.sql.listen(SESSIONS_ENDED_CHANNEL, ended, mayHaveMissed);
      return async () => {
        this.endingListeners.delete(ended);
        await listening.unlisten();
      };
    } catch (error) {
      this.endingListeners.delete(ended);
      throw error;
    }
  }

  /**
   * Drops the reused copy of every session ended in any process, as its NOTIFY arrives, and all copies
   * whenever listening is (re-)established, since endings in between were not heard. Shares the LISTEN
   * of `watchEndings`. Nothing to do when sessions are not reused.
   */
  async startForgettingEnded(): Promise<void> {
    if (this.reuseMs <= 0 || this.stopForgetting) return;
    const listening = await this.sql.listen(
      SESSIONS_ENDED_CHANNEL,
      (sid) => this.forget(sid),
      () => this.forgetAll(),
    );
    this.stopForgetting = listening.unlisten;
  }

  async stopForgettingEnded(): Promise<void> {
    const stop = this.stopForgetting;
    this.stopForgetting = undefined;
    await stop?.();
  }

  /**
   * Of the given sessions, those still valid (as `get` finds them, but always from the table), with their
   * expiry in ms since epoch.
   */
  async expiries(sids: string[]): Promise<Map<string, number>> {
    if (sids.length === 0) return new Map();
    const rows = await this.sql<{ sid: string; expire: Date }[]>`
      SELECT sid, expire FROM sessions WHERE sid = ANY(${sids}::text[]) AND expire > now()`;
    return new Map(rows.map((row) => [row.sid, new Date(row.expire).getTime()]));
  }

  private forget(sid: string) {
    this.endingsHeard++;
    this.recent.delete(sid);
  }

  private forgetAll() {
    this.endingsHeard++;
    this.recent.clear();
  }

  /** What was read or written, kept for reuse unless an ending was heard since it began. */
  private remember(sid: string, sess: string, expire: number, heard: number): Remembered {
    const remembered = { sess, session: frozen(JSON.parse(sess) as StoredSession), until: 0, expire };
    if (heard !== this.endingsHeard || this.reuseMs <= 0) return remembered;
    if (this.recent.size >= MOST_REMEMBERED) {
      const now = this.now();
      for (const [key, entry] of this.recent) if (entry.until <= now) this.recent.delete(key);
      if (this.recent.size >= MOST_REMEMBERED) this.recent.clear();
    }
    remembered.until = this.now() + this.reuseMs;
    this.recent.set(sid, remembered);
    return remembered;
  }

  /** Deletes expired rows; returns how many went. */
  async sweep(): Promise<number> {
    const deleted = await this.sql`DELETE FROM sessions WHERE expire <= now()`;
    return deleted.count;
  }

  /** Sweeps on an interval that does not keep the process alive; `stopSweeping` ends it. */
  startSweeping(intervalMs = 15 * 60 * 1000): void {
    this.stopSweeping();
    this.sweepTimer = setInterval(() => {
      this.sweep().catch(this.onSweepError);
    }, intervalMs);
    this.sweepTimer.unref();
  }

  stopSweeping(): void {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = undefined;
  }
}

function frozen(session: StoredSession): StoredSession {
  Object.freeze(session.cookie);
  return Object.freeze(session);
}

function expiryOf(session: Session): Date {
  const expires = session.cookie?.expires;
  if (expires) {
    const date = new Date(expires);
    if (!Number.isNaN(date.getTime())) return date;
  }
  return new Date(Date.now() + FALLBACK_LIFETIME_MS);
}
