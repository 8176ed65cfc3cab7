import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Sql } from 'postgres';
import type { Hash } from '../../domain/audit/merkle';
import { signCheckpoint, verifyCheckpoint } from '../../domain/audit/signed-note';
import { DomainError } from '../../domain/errors';
import type { Queryable } from '../../eventstore';
import {
  consistencyProof,
  logSize,
  type ProvedStream,
  provedStreams,
  rootAt,
  type Sequenced,
  sequenceLeaves,
  streamsCovered,
} from './log-tree';
import { AUDIT_LOG_ORIGIN, type AuditSigningKey } from './signing-key';

/** A signed tree head of the audit log, as kept. */
export interface SignedCheckpoint {
  size: number;
  rootHash: Uint8Array;
  /** When it was signed (ISO 8601); also its note's `at` line. */
  at: string;
  /** The signing key's ID, 8 hex digits. */
  keyId: string;
  /** The C2SP signed note, whole: what an outsider checks with the public key. */
  note: string;
}

/** The latest checkpoint as a record's check shows it. */
export interface RecordCoverage {
  size: number;
  at: string;
  /** Every event of the record has its leaf in the log at that checkpoint. */
  coversRecord: boolean;
  /** Its signature holds under the server's public key. */
  signatureVerified: boolean;
}

/**
 * How long a bundle waits for its record's events to get their leaves: a write transaction running anywhere on
 * the database server holds the log's order back until it ends (usually milliseconds).
 */
const COVERING_WAIT_MS = 15_000;

/**
 * How long after hearing of new events the sequencer runs: the commits of that moment share one round (each
 * round is a transaction of several statements), and an event still gets its leaf within a tenth of a second.
 */
const WAKE_DELAY_MS = 50;

/** One checkpoint signer at a time over the database (a transaction advisory lock). */
const CHECKPOINT_LOCK = 0x6368_6b70; // "chkp"

interface CheckpointRow {
  size: string;
  rootHash: Uint8Array;
  at: Date;
  keyId: string;
  note: string;
}

const toCheckpoint = (row: CheckpointRow): SignedCheckpoint => ({
  size: Number(row.size),
  rootHash: new Uint8Array(row.rootHash),
  at: row.at.toISOString(),
  keyId: row.keyId,
  note: row.note,
});

export interface AuditLogOptions {
  /** Every signed checkpoint is also written here as `<size>.checkpoint` (and `latest.checkpoint`). */
  checkpointDir?: string | undefined;
  /** Told of every checkpoint this process signs, after it is kept (the `checkpoint.published` webhooks). */
  onPublished?: (checkpoint: SignedCheckpoint) => Promise<void>;
  /** Where failures of the background work are reported. */
  onError?: (error: unknown, what: string) => void;
}

/**
 * The audit log as the server keeps it: a leaf for every event soon after it commits (any process may
 * sequence; one does at a time), and a signed checkpoint of the tree every so often when it grew, or when
 * asked (an audit bundle needs one covering its record).
 */
export class AuditLog {
  private sequencing: Promise<Sequenced> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private wakeTimer: NodeJS.Timeout | undefined;
  private readonly sequencedListeners = new Set<() => void>();

  constructor(
    private readonly sql: Sql,
    readonly key: AuditSigningKey,
    private readonly options: AuditLogOptions = {},
  ) {}

  /** The public key's text, for anyone who checks a checkpoint. */
  get verifierKey(): string {
    return this.key.verifierKey;
  }

  /**
   * Gives leaves to every event committed so far (that is readable: one waiting behind an older transaction
   * gets its leaf at a later call). One run per process at a time; a call during a run runs once more after it.
   */
  sequence(): Promise<Sequenced> {
    if (this.sequencing) {
      this.again = true;
      return this.sequencing;
    }
    const run = async (): Promise<Sequenced> => {
      let result: Sequenced;
      do {
        this.again = false;
        result = await sequenceLeaves(this.sql);
      } while (this.again);
      return result;
    };
    this.sequencing = run().finally(() => {
      this.sequencing = undefined;
      for (const listener of [...this.sequencedListeners]) listener();
    });
    return this.sequencing;
  }

  /**
   * Resolves after this process's next run of the sequencer ends (it may have added leaves, or found another
   * process at it), or after `timeoutMs`: what a caller waiting for leaves waits on instead of a clock. The
   * runs come from the log's wake-ups: an event held back behind a running transaction wakes them once it is
   * readable.
   */
  nextSequenced(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timeout);
        this.sequencedListeners.delete(done);
        resolve();
      };
      const timeout = setTimeout(done, timeoutMs);
      this.sequencedListeners.add(done);
    });
  }

  /**
   * A wake-up from the log (new events): sequences in the background a moment later, so that the commits of
   * that moment (on every process) get their leaves in one round instead of one round each; failures are
   * reported and retried at the next wake-up or tick.
   */
  wake(): void {
    if (this.wakeTimer) return;
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = undefined;
      this.sequence().then(
        // Another process was at it and may have read its page before these events committed: once more.
        (result) => result.busy && this.wake(),
        (error) => this.options.onError?.(error, 'sequencing the audit log'),
      );
    }, WAKE_DELAY_MS);
    this.wakeTimer.unref();
  }

  /**
   * A signed checkpoint covering every event committed and readable now: the latest one when the log has not
   * grown since, else a new one (signed by one process at a time).
   */
  async checkpoint(): Promise<SignedCheckpoint | null> {
    await this.sequence();
    const made = await this.sql.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(${CHECKPOINT_LOCK})`;
      const size = await logSize(tx);
      const latest = await latestCheckpoint(tx);
      if (size === 0 || (latest !== null && latest.size >= size)) return { checkpoint: latest, made: false };
      const rootHash = await rootAt(tx, size);
      const at = new Date().toISOString();
      const note = signCheckpoint(
        { origin: AUDIT_LOG_ORIGIN, size, rootHash, extensions: [`at ${at}`] },
        this.key.name,
        this.key.secretKey,
      );
      const [row] = await tx<CheckpointRow[]>`
        INSERT INTO audit_checkpoints (size, root_hash, at, key_id, note)
        VALUES (${size}, ${Buffer.from(rootHash)}, ${at}, ${this.key.keyIdHex}, ${note})
        RETURNING size, root_hash AS "rootHash", at, key_id AS "keyId", note`;
      return { checkpoint: toCheckpoint(row!), made: true };
    });
    if (made.made && made.checkpoint) await this.publish(made.checkpoint);
    return made.checkpoint;
  }

  /**
   * A signed checkpoint that covers every event of the streams: the latest, or one signed now. Their events
   * get their leaves in the log's order, so one committed behind a transaction still running (in any database
   * of the server) waits for it: this waits up to `timeoutMs` (15 s), then answers 503, to be asked again.
   */
  async checkpointCovering(
    streamIds: readonly string[],
    timeoutMs = COVERING_WAIT_MS,
  ): Promise<SignedCheckpoint> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const checkpoint = await this.checkpoint();
      // Then the next run of the sequencer, which the log's next wake-up starts.
      const next = this.nextSequenced(Math.max(0, until - Date.now()));
      if (checkpoint && (await streamsCovered(this.sql, streamIds, checkpoint.size))) return checkpoint;
      if (Date.now() >= until) {
        throw new DomainError(
          'unavailable',
          'Audit log chưa theo kịp bản ghi này (một transaction còn đang chạy giữ nó lại): hãy thử lại sau giây lát',
          { retryable: true },
        );
      }
      await next;
    }
  }

  /** A copy outside the database: the checkpoint folder, and whoever listens (webhooks). */
  private async publish(checkpoint: SignedCheckpoint): Promise<void> {
    const { checkpointDir, onPublished, onError } = this.options;
    if (checkpointDir) {
      try {
        await mkdir(checkpointDir, { recursive: true });
        await writeWhole(path.join(checkpointDir, `${checkpoint.size}.checkpoint`), checkpoint.note);
        await writeWhole(path.join(checkpointDir, 'latest.checkpoint'), checkpoint.note);
      } catch (error) {
        onError?.(error, `writing checkpoint ${checkpoint.size} to ${checkpointDir}`);
      }
    }
    await onPublished?.(checkpoint).catch((error) => onError?.(error, 'telling of a checkpoint'));
  }

  /** Signs a checkpoint every `seconds` when the log grew, until `stop`. */
  start(seconds: number): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.checkpoint().catch((error) => this.options.onError?.(error, 'signing a checkpoint'));
    }, seconds * 1000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.timer = undefined;
    this.wakeTimer = undefined;
    await this.sequencing?.catch(() => {});
  }

  /** The checkpoint of that size, or null. */
  checkpointOfSize(size: number): Promise<SignedCheckpoint | null> {
    return checkpointOfSize(this.sql, size);
  }

  /** Checkpoints newest first, `limit` of them, below the size `before` when given. */
  checkpoints(page: { limit: number; before?: number | undefined }): Promise<SignedCheckpoint[]> {
    return listCheckpoints(this.sql, page);
  }

  /** The proof that the checkpoint of size `to` extends the one of size `from`. */
  consistencyProof(from: number, to: number): Promise<Hash[]> {
    return consistencyProof(this.sql, from, to);
  }

  /** A record's streams with the proof of each event at the checkpoint of `size`. */
  provedStreams(streamIds: readonly string[], size: number): Promise<ProvedStream[]> {
    return provedStreams(this.sql, streamIds, size);
  }

  /**
   * The latest checkpoint as a record's check shows it: its size and time, whether it covers every event of
   * the stream, and whether its signature holds under this server's key. Null before the first checkpoint.
   */
  async coverage(streamId: string): Promise<RecordCoverage | null> {
    const latest = await latestCheckpoint(this.sql);
    if (latest === null) return null;
    return {
      size: latest.size,
      at: latest.at,
      coversRecord: await streamsCovered(this.sql, [streamId], latest.size),
      signatureVerified: this.signatureHolds(latest),
    };
  }

  /** Whether a checkpoint's note is signed by this server's key and says what the row says. */
  signatureHolds(checkpoint: SignedCheckpoint): boolean {
    const read = verifyCheckpoint(checkpoint.note, this.key.verifierKey);
    return (
      read.ok &&
      read.value.origin === AUDIT_LOG_ORIGIN &&
      read.value.size === checkpoint.size &&
      Buffer.from(read.value.rootHash).equals(Buffer.from(checkpoint.rootHash))
    );
  }
}

/** Writes a file whole: aside first, then renamed into place, so a reader never sees half of it. */
async function writeWhole(file: string, text: string): Promise<void> {
  const aside = `${file}.tmp`;
  await writeFile(aside, text);
  await rename(aside, file);
}

/** The latest signed checkpoint, or null before the first. */
export async function latestCheckpoint(sql: Queryable): Promise<SignedCheckpoint | null> {
  const [row] = await sql<CheckpointRow[]>`
    SELECT size, root_hash AS "rootHash", at, key_id AS "keyId", note
    FROM audit_checkpoints ORDER BY size DESC LIMIT 1`;
  return row ? toCheckpoint(row) : null;
}

/** The checkpoint of that size, or null. */
export async function checkpointOfSize(sql: Queryable, size: number): Promise<SignedCheckpoint | null> {
  const [row] = await sql<CheckpointRow[]>`
    SELECT size, root_hash AS "rootHash", at, key_id AS "keyId", note
    FROM audit_checkpoints WHERE size = ${size}`;
  return row ? toCheckpoint(row) : null;
}

/** Checkpoints newest first, `limit` of them, below the size `before` when given (the page's cursor). */
export async function listCheckpoints(
  sql: Queryable,
  page: { limit: number; before?: number | undefined },
): Promise<SignedCheckpoint[]> {
  const rows = await sql<CheckpointRow[]>`
    SELECT size, root_hash AS "rootHash", at, key_id AS "keyId", note
    FROM audit_checkpoints
    ${page.before === undefined ? sql`` : sql`WHERE size < ${page.before}`}
    ORDER BY size DESC LIMIT ${page.limit}`;
  return rows.map(toCheckpoint);
}
