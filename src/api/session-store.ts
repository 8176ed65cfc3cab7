import type { SessionStore } from '@fastify/session';
import type { Session } from 'fastify';
import type { Sql } from 'postgres';

type Done = (error?: unknown) => void;

/** Used when a session has no expiry of its own (a cookie without maxAge). */
const FALLBACK_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * Sessions in the `sessions(sid, sess, expire)` table, with the callback interface @fastify/session
 * expects. Rows past `expire` are never returned and are deleted by a periodic sweep.
 */
export class PostgresSessionStore implements SessionStore {
  private sweepTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sql: Sql,
    private readonly onSweepError: (error: unknown) => void = () => {},
  ) {}

  set(sid: string, session: Session, done: Done): void {
    const expire = expiryOf(session);
    // Sent as text and cast by the server: a jsonb-typed parameter would make postgres.js encode the string again.
    const sess = JSON.stringify(session);
    this.sql`
      INSERT INTO sessions (sid, sess, expire) VALUES (${sid}, ${sess}::text::jsonb, ${expire})
      ON CONFLICT (sid) DO UPDATE SET sess = excluded.sess, expire = excluded.expire`.then(
      () => done(),
      done,
    );
  }

  get(sid: string, done: (error: unknown, session?: Session | null) => void): void {
    // `sess::text` keeps the stored keys exactly as written: the connection's camelCase transform also
    // rewrites keys inside json values.
    this.sql<{ sess: string }[]>`
      SELECT sess::text AS sess FROM sessions WHERE sid = ${sid} AND expire > now()`.then(
      ([row]) => done(null, row ? (JSON.parse(row.sess) as Session) : null),
      (error) => done(error),
    );
  }

  destroy(sid: string, done: Done): void {
    this.sql`DELETE FROM sessions WHERE sid = ${sid}`.then(() => done(), done);
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

function expiryOf(session: Session): Date {
  const expires = session.cookie?.expires;
  if (expires) {
    const date = new Date(expires);
    if (!Number.isNaN(date.getTime())) return date;
  }
  return new Date(Date.now() + FALLBACK_LIFETIME_MS);
}
