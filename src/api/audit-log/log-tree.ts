import type { Sql } from 'postgres';
import { eventLeafHash } from '../../domain/audit/event-leaf';
import {
  CompactTree,
  consistencyProofOf,
  edgeOf,
  type Hash,
  inclusionProofOf,
  rootOfSize,
  type Subtree,
  type SubtreeHashes,
  subtreesAskedBy,
} from '../../domain/audit/merkle';
import { encodeBase64 } from '../../domain/audit/signed-note';
import { DomainError, ruleViolated } from '../../domain/errors';
import { HELD_BACK, type Queryable } from '../../eventstore';

/**
 * The audit log (migrations/039_audit_log.sql): a leaf per event in the log's gap-safe order, appended by one
 * sequencer at a time, and the tree's heads and proofs read back from the leaves and the completed nodes.
 */

/** One sequencer at a time over the whole database, whichever process runs it (a transaction advisory lock). */
const SEQUENCER_LOCK = 0x6175_6469; // "audi"

/** The most events one bundle or one answer of proofs holds (each with its proof, about 1 kB at a million events). */
export const MAX_PROVED_EVENTS = 100_000;

/**
 * The most content (characters of the events' stored data, each run's input and results up to MAX_TEXT_CHARS)
 * one bundle or one answer of proofs holds: the answer is built whole in memory before it is sent.
 */
export const MAX_PROVED_CONTENT = 100_000_000;

/** What one bundle or one answer of proofs may hold. */
export interface ProvedLimits {
  events: number;
  content: number;
}

export const PROVED_LIMITS: ProvedLimits = { events: MAX_PROVED_EVENTS, content: MAX_PROVED_CONTENT };

/** Events read and hashed per round of the sequencer. */
const SEQUENCE_BATCH = 2_000;

export interface Sequenced {
  /** Leaves added by this call. */
  added: number;
  /** The log's size afterwards. */
  size: number;
  /** Another process was sequencing: this call added nothing. */
  busy: boolean;
  /** Committed events wait behind an older transaction still running: they get their leaves later. */
  heldBack: boolean;
}

interface EventToLeaf {
  transactionId: string;
  globalPosition: string;
  streamId: string;
  position: string;
  type: string;
  actor: string | null;
  at: string;
  contentHash: string;
}

/**
 * The events' time as a leaf records it: the time the server wrote into the event, else (an event of before
 * that) its row's, in the same ISO form.
 */
export const eventTime = (table = '') => `coalesce(${table}metadata ->> 'at',
  to_char(${table}created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;

/**
 * Gives every event committed since the last call its leaf, in the log's order, up to `limit` events (in
 * rounds of SEQUENCE_BATCH, each its own transaction). Safe to call from every process at once: one of them
 * sequences, the others find it busy and return.
 */
export async function sequenceLeaves(sql: Sql, limit = Number.POSITIVE_INFINITY): Promise<Sequenced> {
  let added = 0;
  for (;;) {
    const batch = Math.min(SEQUENCE_BATCH, limit - added);
    const round = await sequenceRound(sql, batch);
    added += round.added;
    // A page not filled is the end of what is readable now: no round more just to find nothing.
    if (round.busy || round.added < batch || round.heldBack || added >= limit) return { ...round, added };
  }
}

async function sequenceRound(sql: Sql, batch: number): Promise<Sequenced> {
  return sql.begin(async (tx) => {
    const [lock] = await tx<
      { locked: boolean }[]
    >`SELECT pg_try_advisory_xact_lock(${SEQUENCER_LOCK}) AS locked`;
    if (!lock?.locked) return { added: 0, size: await logSize(tx), busy: true, heldBack: false };
    const [last] = await tx<{ leafIndex: string; transactionId: string; globalPosition: string }[]>`
      SELECT leaf_index AS "leafIndex", transaction_id::text AS "transactionId", global_position AS "globalPosition"
      FROM audit_log_leaves ORDER BY leaf_index DESC LIMIT 1`;
    const size = last ? Number(last.leafIndex) + 1 : 0;
    const events = await tx.unsafe<(EventToLeaf & { heldBack: boolean })[]>(
      `SELECT (${HELD_BACK}) AS "heldBack", page.* FROM (SELECT 1) one LEFT JOIN LATERAL (
         SELECT transaction_id::text AS "transactionId", global_position AS "globalPosition",
           stream_id AS "streamId", stream_position AS position, event_type AS type,
           metadata ->> 'userId' AS actor, ${eventTime()} AS at,
           encode(sha256(convert_to(data::text, 'UTF8')), 'hex') AS "contentHash"
         FROM events e
         WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
           AND (transaction_id, global_position) > ($1::xid8, $2::bigint)
           -- After a restore the log's order among the restored events is their positions', which may not be
           -- the order their leaves were given in: none is given a second leaf.
           AND NOT EXISTS (SELECT 1 FROM audit_log_leaves l WHERE l.global_position = e.global_position)
         ORDER BY transaction_id, global_position
         LIMIT $3
       ) page ON true
       ORDER BY page."transactionId"::xid8, page."globalPosition"::bigint`,
      [last?.transactionId ?? '0', last?.globalPosition ?? '0', batch],
      { prepare: true },
    );
    const heldBack = events[0]?.heldBack === true;
    const found = events.filter((event) => event.streamId !== null);
    if (found.length === 0) return { added: 0, size, busy: false, heldBack };

    const edge = edgeOf(size);
    const stored = await readSubtrees(tx, edge);
    const tree = new CompactTree(
      size,
      edge.map((subtree) => stored(subtree)),
    );
    const leaves: unknown[] = [];
    const nodes: unknown[] = [];
    for (const event of found) {
      const hash = eventLeafHash({
        streamId: event.streamId,
        position: Number(event.position),
        type: event.type,
        contentHash: event.contentHash,
        actor: event.actor,
        at: event.at,
      });
      leaves.push([
        tree.size,
        event.transactionId,
        event.globalPosition,
        event.streamId,
        event.position,
        toHex(hash),
      ]);
      for (const node of tree.append(hash)) nodes.push([node.level, node.index, toHex(node.hash)]);
    }
    await tx`
      INSERT INTO audit_log_leaves (leaf_index, transaction_id, global_position, stream_id, stream_position, hash)
      SELECT (l ->> 0)::bigint, (l ->> 1)::xid8, (l ->> 2)::bigint, l ->> 3, (l ->> 4)::bigint, decode(l ->> 5, 'hex')
      FROM jsonb_array_elements(${JSON.stringify(leaves)}::text::jsonb) l`;
    if (nodes.length > 0) {
      await tx`
        INSERT INTO audit_log_nodes (level, node_index, hash)
        SELECT (n ->> 0)::smallint, (n ->> 1)::bigint, decode(n ->> 2, 'hex')
        FROM jsonb_array_elements(${JSON.stringify(nodes)}::text::jsonb) n`;
    }
    return { added: found.length, size: tree.size, busy: false, heldBack };
  });
}

/** Where the log's first `size` leaves end in the log's order: the last one's event's place, null for none. */
export async function leafCursor(
  sql: Queryable,
  size: number,
): Promise<{ transactionId: string; globalPosition: number } | null> {
  if (size === 0) return null;
  const [row] = await sql<{ transactionId: string; globalPosition: string }[]>`
    SELECT transaction_id::text AS "transactionId", global_position AS "globalPosition"
    FROM audit_log_leaves WHERE leaf_index = ${size - 1}`;
  return row ? { transactionId: row.transactionId, globalPosition: Number(row.globalPosition) } : null;
}

/** Whether every event of the streams has its leaf among the first `size` of the log. */
export async function streamsCovered(
  sql: Queryable,
  streamIds: readonly string[],
  size: number,
): Promise<boolean> {
  const [row] = await sql<{ uncovered: number }[]>`
    SELECT count(*)::int AS uncovered FROM events e
    WHERE e.stream_id IN (SELECT jsonb_array_elements_text(${JSON.stringify(streamIds)}::text::jsonb))
      AND NOT EXISTS (
      SELECT 1 FROM audit_log_leaves l
      WHERE l.global_position = e.global_position AND l.leaf_index < ${size})`;
  return row?.uncovered === 0;
}

/** How many leaves the log holds. */
export async function logSize(sql: Queryable): Promise<number> {
  const [row] = await sql<
    { size: string | null }[]
  >`SELECT max(leaf_index) + 1 AS size FROM audit_log_leaves`;
  return Number(row?.size ?? 0);
}

/**
 * The stored hashes of the perfect subtrees asked for (leaves from the leaves, the rest from the nodes), as a
 * lookup that throws for one the log does not hold (a size beyond the log, or rows removed from outside).
 */
async function readSubtrees(sql: Queryable, subtrees: readonly Subtree[]): Promise<SubtreeHashes> {
  const found = new Map<string, Hash>();
  if (subtrees.length > 0) {
    const rows = await sql<{ level: number; index: string; hash: Uint8Array }[]>`
      WITH asked AS (
        SELECT (a ->> 0)::smallint AS level, (a ->> 1)::bigint AS node_index
        FROM jsonb_array_elements(${JSON.stringify(subtrees.map((s) => [s.level, s.index]))}::text::jsonb) a
      )
      SELECT 0 AS level, l.leaf_index AS index, l.hash FROM asked JOIN audit_log_leaves l
        ON asked.level = 0 AND l.leaf_index = asked.node_index
      UNION ALL
      SELECT n.level, n.node_index AS index, n.hash FROM asked JOIN audit_log_nodes n
        ON n.level = asked.level AND n.node_index = asked.node_index`;
    for (const row of rows) found.set(`${row.level}/${Number(row.index)}`, new Uint8Array(row.hash));
  }
  return ({ level, index }) => {
    const hash = found.get(`${level}/${index}`);
    if (!hash) throw new AuditLogIncomplete(level, index);
    return hash;
  };
}

/** A subtree a proof needs is not in the log's tables: asked beyond the log, or removed from outside. */
export class AuditLogIncomplete extends DomainError {
  constructor(
    readonly level: number,
    readonly index: number,
  ) {
    super(
      'conflict',
      `Audit log thiếu subtree ở level ${level}, index ${index}: các bảng của nó đã bị sửa từ bên ngoài`,
    );
    this.name = 'AuditLogIncomplete';
  }
}

/** Runs a computation over the tree, reading every subtree it needs in one statement first. */
async function overTree<T>(sql: Queryable, compute: (subtrees: SubtreeHashes) => T): Promise<T> {
  return compute(await readSubtrees(sql, subtreesAskedBy(compute)));
}

/** The tree head at `size` (at most the log's size). */
export function rootAt(sql: Queryable, size: number): Promise<Hash> {
  return overTree(sql, (subtrees) => rootOfSize(size, subtrees));
}

/** The inclusion proof of each leaf given in the tree of `size` leaves. */
export function inclusionProofs(
  sql: Queryable,
  leafIndexes: readonly number[],
  size: number,
): Promise<Map<number, Hash[]>> {
  return overTree(
    sql,
    (subtrees) => new Map(leafIndexes.map((index) => [index, inclusionProofOf(index, size, subtrees)])),
  );
}

/** The consistency proof from the tree of `from` leaves to the tree of `to`. */
export function consistencyProof(sql: Queryable, from: number, to: number): Promise<Hash[]> {
  return overTree(sql, (subtrees) => consistencyProofOf(from, to, subtrees));
}

/** A stream's leaves below `size`, by index: where the log holds each of its events. */
export async function streamLeaves(
  sql: Queryable,
  streamIds: readonly string[],
  size: number,
): Promise<{ streamId: string; index: number; position: number }[]> {
  if (streamIds.length === 0) return [];
  const rows = await sql<{ streamId: string; index: string; position: string }[]>`
    SELECT stream_id AS "streamId", leaf_index AS index, stream_position AS position
    FROM audit_log_leaves
    WHERE stream_id IN (SELECT jsonb_array_elements_text(${JSON.stringify(streamIds)}::text::jsonb))
      AND leaf_index < ${size}
    ORDER BY leaf_index`;
  return rows.map((row) => ({
    streamId: row.streamId,
    index: Number(row.index),
    position: Number(row.position),
  }));
}

/** An event as a bundle carries it: what its leaf says, its content, and the proof that the log holds it. */
export interface ProvedEvent {
  position: number;
  type: string;
  actor: string | null;
  at: string;
  /** The event's data as stored (PostgreSQL's jsonb text): its leaf holds this text's SHA-256. */
  content: string;
  /** Its leaf in the log, or null: the log holds no leaf for it. */
  leafIndex: number | null;
  /** The inclusion proof of its leaf at the bundle's checkpoint, base64 hashes, the nearest first. */
  proof: string[];
}

/** A stream of a bundle: every leaf the log holds for it, and its events with their proofs. */
export interface ProvedStream {
  streamId: string;
  leaves: { index: number; position: number }[];
  events: ProvedEvent[];
}

/**
 * A record's streams with a proof for each of its events at a checkpoint covering them, read in one snapshot:
 * events committed after the checkpoint's last leaf are left for a later bundle, and an event that came
 * before it in the log's order but has no leaf is listed without one (the log does not hold it).
 */
export async function provedStreams(
  sql: Sql,
  streamIds: readonly string[],
  size: number,
  limits: ProvedLimits = PROVED_LIMITS,
): Promise<ProvedStream[]> {
  return sql.begin('isolation level repeatable read read only', async (tx) => {
    const [counted] = await tx<{ events: number; content: number }[]>`
      SELECT count(*)::int AS events, coalesce(sum(length(data::text)), 0)::float8 AS content FROM events
      WHERE stream_id IN (SELECT jsonb_array_elements_text(${JSON.stringify(streamIds)}::text::jsonb))`;
    if ((counted?.events ?? 0) > limits.events) {
      throw ruleViolated(
        `Bản ghi có ${counted!.events} event, nhiều hơn ${limits.events} event mà một câu trả lời chứng minh: hãy chọn ít lần chạy hơn (khoảng thời gian ngắn hơn)`,
      );
    }
    if ((counted?.content ?? 0) > limits.content) {
      throw ruleViolated(
        `Các event của bản ghi có ${counted!.content} ký tự nội dung, nhiều hơn ${limits.content} ký tự mà một câu trả lời chứa: hãy chọn ít lần chạy hơn (khoảng thời gian ngắn hơn)`,
      );
    }
    const cursor = await leafCursor(tx, size);
    const events = await recordEvents(tx, streamIds);
    const leaves = await streamLeaves(tx, streamIds, size);
    const leafOf = new Map<string, number>();
    // A position with two leaves (its event cut off, another appended in its place) is the later one's.
    for (const leaf of leaves) leafOf.set(`${leaf.streamId}\n${leaf.position}`, leaf.index);
    const covered = events.filter(
      (event) => leafOf.has(`${event.streamId}\n${event.position}`) || !afterCursor(event, cursor),
    );
    const indexes = covered.flatMap((event) => leafOf.get(`${event.streamId}\n${event.position}`) ?? []);
    const proofs = await inclusionProofs(tx, indexes, size);
    return streamIds.map((streamId) => ({
      streamId,
      leaves: leaves
        .filter((leaf) => leaf.streamId === streamId)
        .map(({ index, position }) => ({ index, position })),
      events: covered
        .filter((event) => event.streamId === streamId)
        .map(({ streamId: stream, transactionId: _t, globalPosition: _g, ...event }) => {
          const leafIndex = leafOf.get(`${stream}\n${event.position}`) ?? null;
          return { ...event, leafIndex, proof: leafIndex === null ? [] : base64(proofs.get(leafIndex)!) };
        }),
    }));
  });
}

interface RecordEvent {
  streamId: string;
  position: number;
  type: string;
  actor: string | null;
  at: string;
  content: string;
  transactionId: string;
  globalPosition: number;
}

async function recordEvents(sql: Queryable, streamIds: readonly string[]): Promise<RecordEvent[]> {
  if (streamIds.length === 0) return [];
  const rows = await sql.unsafe<
    (Omit<RecordEvent, 'position' | 'globalPosition'> & {
      position: string;
      globalPosition: string;
    })[]
  >(
    `SELECT stream_id AS "streamId", stream_position AS position, event_type AS type,
       metadata ->> 'userId' AS actor, ${eventTime()} AS at, data::text AS content,
       transaction_id::text AS "transactionId", global_position AS "globalPosition"
     FROM events WHERE stream_id IN (SELECT jsonb_array_elements_text($1::text::jsonb))
     ORDER BY stream_id, stream_position`,
    [JSON.stringify(streamIds)],
  );
  return rows.map((row) => ({
    ...row,
    position: Number(row.position),
    globalPosition: Number(row.globalPosition),
  }));
}

/** Whether an event comes after the cursor in the log's order (transaction, then global position). */
function afterCursor(
  event: Pick<RecordEvent, 'transactionId' | 'globalPosition'>,
  cursor: { transactionId: string; globalPosition: number } | null,
): boolean {
  if (cursor === null) return true;
  const ours = BigInt(event.transactionId);
  const theirs = BigInt(cursor.transactionId);
  return ours > theirs || (ours === theirs && event.globalPosition > cursor.globalPosition);
}

const toHex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** Hashes as a bundle and the API write them: base64. */
export const base64 = (hashes: readonly Uint8Array[]) => hashes.map((hash) => encodeBase64(hash));
