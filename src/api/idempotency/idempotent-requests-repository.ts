import { randomUUID } from 'node:crypto';
import type { Sql } from 'postgres';

/** A request named by its user's Idempotency-Key, and what makes it that request (`requestFingerprint`). */
export interface KeyedRequest {
  userId: string;
  key: string;
  fingerprint: string;
}

/** The first answer to a keyed request, as it is replayed. */
export interface StoredAnswer {
  status: number;
  contentType: string | null;
  body: string | null;
  /** The first answer's headers a replay gives again (`REPLAYED_HEADERS`), by lower-case name. */
  headers: Record<string, string> | null;
}

/** What a claim on a key found. */
export type Claim =
  /** The key is this request's: run it, then `answer` or `release` with this claim id. */
  | { kind: 'claimed'; claimId: string }
  /** The same request was answered before: answer the same. */
  | { kind: 'answered'; answer: StoredAnswer }
  /** The same request is being answered by another request, held by that claim on that server instance. */
  | { kind: 'under_way'; claimId: string; instanceId: number | null }
  /** The key names another request. */
  | { kind: 'reused' };

export interface KeyRetention {
  /** How long an answer is kept: after that the key may name a new request (and its row is swept). */
  keptForMs: number;
  /** After how long a claim with no answer is taken for a dead process's, and may be taken over. */
  abandonedAfterMs: number;
}

/** A day: far longer than any client goes on retrying one call, and short enough to keep the table small. */
export const KEPT_FOR_MS = 24 * 60 * 60 * 1000;

/**
 * The keyed requests of every user (table `idempotent_requests`): the primary key makes one request at a time
 * the holder of a key, on whichever instance it arrives.
 */
export class IdempotentRequestsRepository {
  private sweepTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sql: Sql,
    private readonly retention: KeyRetention,
  ) {}

  /**
   * Claims the key for this request, or says who has it. The claim is taken over when the key's row is past
   * its retention, or is the same request's claim left unanswered longer than `abandonedAfterMs`.
   */
  async claim({ userId, key, fingerprint }: KeyedRequest, instanceId: number): Promise<Claim> {
    const { sql } = this;
    const { keptForMs, abandonedAfterMs } = this.retention;
    const claimId = randomUUID();
    for (;;) {
      const taken = await sql<{ claim: string }[]>`
        INSERT INTO idempotent_requests AS r (user_id, key, fingerprint, claim, instance_id)
        VALUES (${userId}, ${key}, ${fingerprint}, ${claimId}, ${instanceId})
        ON CONFLICT (user_id, key) DO UPDATE
          SET fingerprint = EXCLUDED.fingerprint, claim = EXCLUDED.claim, claimed_at = now(),
              instance_id = EXCLUDED.instance_id, status = NULL, content_type = NULL, body = NULL,
              headers = NULL
          WHERE r.claimed_at < now() - ${keptForMs}::bigint * interval '1 millisecond'
             OR (r.status IS NULL AND r.fingerprint = EXCLUDED.fingerprint
                 AND r.claimed_at < now() - ${abandonedAfterMs}::bigint * interval '1 millisecond')
        RETURNING claim`;
      if (taken[0]?.claim === claimId) return { kind: 'claimed', claimId };
      const [held] = await sql<
        (StoredAnswer & { fingerprint: string; claim: string; instanceId: number | null })[]
      >`
        SELECT fingerprint, claim, instance_id, status, content_type, body, headers FROM idempotent_requests
        WHERE user_id = ${userId} AND key = ${key}`;
      // Given up (or swept) between the two statements: claim again.
      if (!held) continue;
      if (held.fingerprint !== fingerprint) return { kind: 'reused' };
      if (held.status === null)
        return { kind: 'under_way', claimId: held.claim, instanceId: held.instanceId };
      return {
        kind: 'answered',
        answer: {
          status: held.status,
          contentType: held.contentType,
          body: held.body,
          headers: held.headers,
        },
      };
    }
  }

  /**
   * Takes over a claim left unanswered by a process that is gone; answers the new claim's id, or null when the
   * claim changed meanwhile (answered, given up, or taken over by another request).
   */
  async takeOver(userId: string, key: string, claimId: string, instanceId: number): Promise<string | null> {
    const newClaimId = randomUUID();
    const taken = await this.sql`
      UPDATE idempotent_requests
      SET claim = ${newClaimId}, claimed_at = now(), instance_id = ${instanceId}
      WHERE user_id = ${userId} AND key = ${key} AND claim = ${claimId} AND status IS NULL`;
    return taken.count === 1 ? newClaimId : null;
  }

  /** Records the claimed request's answer, unless its claim was taken over meanwhile. */
  async answer(userId: string, key: string, claimId: string, answer: StoredAnswer): Promise<void> {
    await this.sql`
      UPDATE idempotent_requests
      SET status = ${answer.status}, content_type = ${answer.contentType}, body = ${answer.body},
          headers = ${answer.headers === null ? null : this.sql.json(answer.headers)}
      WHERE user_id = ${userId} AND key = ${key} AND claim = ${claimId}`;
  }

  /** Gives the claim up with no answer kept: the next request with the key runs as new. */
  async release(userId: string, key: string, claimId: string): Promise<void> {
    await this.sql`
      DELETE FROM idempotent_requests WHERE user_id = ${userId} AND key = ${key} AND claim = ${claimId}`;
  }

  /** Deletes the rows past their retention; returns how many went. */
  async sweep(): Promise<number> {
    const deleted = await this.sql`
      DELETE FROM idempotent_requests
      WHERE claimed_at < now() - ${this.retention.keptForMs}::bigint * interval '1 millisecond'`;
    return deleted.count;
  }

  /** Sweeps on an interval that does not keep the process alive; `stopSweeping` ends it. */
  startSweeping(onError: (error: unknown) => void, intervalMs = 15 * 60 * 1000): void {
    this.stopSweeping();
    this.sweepTimer = setInterval(() => {
      this.sweep().catch(onError);
    }, intervalMs);
    this.sweepTimer.unref();
  }

  stopSweeping(): void {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = undefined;
  }
}
