import type { ReservedSql, Sql } from 'postgres';

/**
 * The first key of every server instance's advisory lock (the two-key form: this class, the instance's
 * number). The migrations' lock is a one-key lock, so the two never meet.
 */
export const INSTANCE_LOCK_CLASS = 7_340_212;

/** Each process says it has started on this channel, so the others learn at once that they are not alone. */
const INSTANCE_STARTED_CHANNEL = 'server_instance_started';
/** How often the live instances are counted again: that is how a process learns the others have gone. */
const PEERS_CHECK_MS = 10_000;
/**
 * How often a process makes sure it still holds its lock, and takes it again if not (its connection was lost:
 * PostgreSQL restarted, say). A peer that finds the lock free looks again after LOOK_AGAIN_MS, longer than
 * this, before it takes the process for dead.
 */
export const KEEP_LOCK_MS = 2_000;
/** How long a peer waits before it looks again at a lock it found free (see KEEP_LOCK_MS). */
export const LOOK_AGAIN_MS = 3 * KEEP_LOCK_MS + 1_000;

/**
 * This server process as the database knows it: a number from the `server_instances` sequence, taken at
 * start, and a session-level advisory lock on it held on one reserved connection for the process's whole
 * life. Runs record the instance making them. When a process dies, however it dies, PostgreSQL closes its
 * connection and frees its lock, so any other process can tell at once that its runs will never end.
 */
export class ServerInstance {
  private renewing: Promise<void> | null = null;
  private othersLive = true;
  /** Starts of other processes heard of: a count read before one was heard must not undo it. */
  private startsHeard = 0;
  private peersCheck: NodeJS.Timeout | undefined;
  private lockCheck: NodeJS.Timeout | undefined;
  private stopWatchingPeers: (() => Promise<unknown>) | undefined;

  private constructor(
    private readonly sql: Sql,
    private number: number,
    /** The connection holding the lock; never used again once its lock is found lost (it was closed). */
    private holder: ReservedSql,
  ) {}

  /** Takes a new instance number and its lock. */
  static async start(sql: Sql): Promise<ServerInstance> {
    const holder = await sql.reserve();
    try {
      return new ServerInstance(sql, await lockNewNumber(holder), holder);
    } catch (error) {
      holder.release();
      throw error;
    }
  }

  get id(): number {
    return this.number;
  }

  /**
   * Whether this process is the only one on the database (as far as it knows; until `watchPeers` has looked,
   * it assumes it is not). Work that must reach the others (a view kept in memory, tokens for their sockets)
   * may take a shortcut only while it is.
   */
  get alone(): boolean {
    return !this.othersLive;
  }

  /**
   * Learns which other processes share the database: another one starting is heard of at once (NOTIFY), one
   * stopping or dying within PEERS_CHECK_MS (the live instances' locks are counted).
   */
  async watchPeers(): Promise<void> {
    const listening = await this.sql.listen(
      INSTANCE_STARTED_CHANNEL,
      (id) => {
        if (Number(id) === this.number) return;
        this.startsHeard++;
        this.othersLive = true;
      },
      // Listening again after a lost connection: starts meanwhile went unheard, and the lock may be lost too.
      () => {
        void this.keepHeld().catch(() => {});
        void this.countPeers().catch(() => {});
      },
    );
    this.stopWatchingPeers = () => listening.unlisten();
    await this.sql.notify(INSTANCE_STARTED_CHANNEL, String(this.number));
    await this.countPeers();
    this.peersCheck = setInterval(() => void this.countPeers().catch(() => {}), PEERS_CHECK_MS);
    this.peersCheck.unref();
    // A lock lost with its connection is taken again within seconds, before any peer takes this one for dead.
    this.lockCheck = setInterval(() => void this.keepHeld().catch(() => {}), KEEP_LOCK_MS);
    this.lockCheck.unref();
  }

  private async countPeers() {
    const heard = this.startsHeard;
    const [row] = await this.sql<{ others: number }[]>`
      SELECT count(*)::int AS others FROM pg_locks
      WHERE locktype = 'advisory' AND granted AND classid = ${INSTANCE_LOCK_CLASS} AND objsubid = 2
        AND objid <> ${this.number}
        AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;
    if (this.startsHeard === heard) this.othersLive = (row?.others ?? 1) > 0;
  }

  /** How many server processes are live on the database now, this one included (their locks counted). */
  async liveInstances(): Promise<number> {
    const [row] = await this.sql<{ live: number }[]>`
      SELECT count(*)::int AS live FROM pg_locks
      WHERE locktype = 'advisory' AND granted AND classid = ${INSTANCE_LOCK_CLASS} AND objsubid = 2
        AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;
    return Math.max(1, row?.live ?? 1);
  }

  /**
   * Of the given instances, those whose process is gone: their lock can be taken. It is taken only for the
   * one statement (a transaction-level lock), so it is never held by the asker.
   */
  async gone(instanceIds: number[]): Promise<number[]> {
    const ids = [...new Set(instanceIds)];
    if (ids.length === 0) return [];
    const rows = await this.sql<{ id: number }[]>`
      SELECT id FROM unnest(${ids}::integer[]) AS id
      WHERE pg_try_advisory_xact_lock(${INSTANCE_LOCK_CLASS}, id)`;
    return rows.map((row) => row.id);
  }

  /**
   * Takes the lock again when its connection was lost while this process lives (PostgreSQL restarted, say):
   * without it the other processes would take this one for dead and fail its runs. The same number when it
   * is free, else a new one.
   */
  keepHeld(): Promise<void> {
    this.renewing ??= this.renew().finally(() => {
      this.renewing = null;
    });
    return this.renewing;
  }

  /** Frees the lock (a clean shutdown): from now on this process's runs left unfinished count as interrupted. */
  async stop(): Promise<void> {
    clearInterval(this.peersCheck);
    clearInterval(this.lockCheck);
    await this.stopWatchingPeers?.().catch(() => {});
    await this.renewing?.catch(() => {});
    try {
      if ((await this.gone([this.number])).length > 0) return;
      await this.holder`SELECT pg_advisory_unlock(${INSTANCE_LOCK_CLASS}, ${this.number})`;
      this.holder.release();
    } catch {
      // The database went first (its own shutdown, a lost connection): the lock went with the connection.
    }
  }

  private async renew() {
    if ((await this.gone([this.number])).length === 0) return;
    // The old connection was closed and postgres.js has taken it back: it is left alone.
    const holder = await this.sql.reserve();
    try {
      // A peer looking whether this number is free holds its lock for that one statement: tried a few times.
      let held = false;
      for (let attempt = 0; attempt < 5 && !held; attempt++) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20));
        const [again] = await holder<{ held: boolean }[]>`
          SELECT pg_try_advisory_lock(${INSTANCE_LOCK_CLASS}, ${this.number}) AS held`;
        held = again?.held === true;
      }
      this.number = held ? this.number : await lockNewNumber(holder);
      this.holder = holder;
    } catch (error) {
      holder.release();
      throw error;
    }
  }
}

/** A number of the sequence whose lock this connection takes; a number another live process holds is skipped. */
async function lockNewNumber(holder: ReservedSql): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const [next] = await holder<{ id: number; held: boolean }[]>`
      SELECT n::integer AS id, pg_try_advisory_lock(${INSTANCE_LOCK_CLASS}, n::integer) AS held
      FROM nextval('server_instances') AS n`;
    if (next?.held) return next.id;
  }
  throw new Error('No server instance number could be locked');
}
