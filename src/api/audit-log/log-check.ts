import { eventLeafHash } from '../../domain/audit/event-leaf';
import { CompactTree, equalHashes } from '../../domain/audit/merkle';
import { verifyCheckpoint } from '../../domain/audit/signed-note';
import type { Queryable } from '../../eventstore';
import { eventTime } from './log-tree';
import { AUDIT_LOG_ORIGIN } from './signing-key';

/** Something the whole log's check found, with where. */
export type LogProblem =
  /** Leaves gone from the log's table (its indexes skip them). */
  | { kind: 'leaves-missing'; from: number; to: number }
  /** Leaves whose events are gone from the events (deleted), with the streams they were of. */
  | { kind: 'events-missing'; from: number; to: number; streams: string[] }
  /** A leaf whose event now reads otherwise than when it got its leaf. */
  | { kind: 'event-changed'; leafIndex: number; streamId: string; position: number }
  /** An event that came before the log's last leaf in the log's order, but has no leaf. */
  | { kind: 'not-in-log'; streamId: string; position: number }
  /** A checkpoint whose signature does not hold under the key. */
  | { kind: 'checkpoint-signature'; size: number }
  /** The stored leaves do not give the tree head a checkpoint signed: the log was rewritten. */
  | { kind: 'checkpoint-mismatch'; size: number }
  /** A checkpoint signed over more leaves than the log holds: its tail was cut. */
  | { kind: 'checkpoint-beyond-log'; size: number; leaves: number };

export interface LogCheck {
  leaves: number;
  /** Checkpoints whose signature and tree head both hold. */
  checkpointsVerified: number;
  latest: { size: number; at: string } | null;
  problems: LogProblem[];
  /** Problems found beyond the MAX_PROBLEMS listed. */
  moreProblems: number;
}

/** Problems listed at most; the check says how many more there were. */
const MAX_PROBLEMS = 200;
const BATCH = 5_000;

interface LeafRow {
  index: string;
  streamId: string;
  position: string;
  hash: Uint8Array;
  eventStream: string | null;
  eventPosition: string | null;
  type: string | null;
  actor: string | null;
  at: string | null;
  contentHash: string | null;
}

/**
 * Checks the whole audit log: every leaf against the event it was made of (deleted, changed), the leaves
 * against every signed checkpoint (each checkpoint's signature under `verifierKey`, and the tree head the
 * stored leaves give at its size), and the events the log should hold but does not. Needs no APP_SECRET: what
 * it trusts is the public key.
 */
export async function checkAuditLog(sql: Queryable, verifierKey: string): Promise<LogCheck> {
  const problems: LogProblem[] = [];
  let more = 0;
  const report = (problem: LogProblem) => {
    const last = problems.at(-1);
    // Runs of missing events (a deleted execution) are one problem.
    if (
      problem.kind === 'events-missing' &&
      last?.kind === 'events-missing' &&
      last.to + 1 === problem.from
    ) {
      last.to = problem.to;
      for (const stream of problem.streams) if (!last.streams.includes(stream)) last.streams.push(stream);
      return;
    }
    if (problems.length < MAX_PROBLEMS) problems.push(problem);
    else more += 1;
  };

  const checkpoints = await sql<{ size: string; at: Date; note: string }[]>`
    SELECT size, at, note FROM audit_checkpoints ORDER BY size`;
  const signed: { size: number; root: Uint8Array }[] = [];
  for (const checkpoint of checkpoints) {
    const read = verifyCheckpoint(checkpoint.note, verifierKey);
    if (!read.ok || read.value.origin !== AUDIT_LOG_ORIGIN || read.value.size !== Number(checkpoint.size)) {
      report({ kind: 'checkpoint-signature', size: Number(checkpoint.size) });
    } else signed.push({ size: read.value.size, root: read.value.rootHash });
  }

  const tree = new CompactTree();
  let verified = 0;
  let next = 0;
  const passCheckpoints = () => {
    while (signed[next] && signed[next]!.size <= tree.size) {
      const checkpoint = signed[next]!;
      if (checkpoint.size === tree.size) {
        if (equalHashes(tree.root(), checkpoint.root)) verified += 1;
        else report({ kind: 'checkpoint-mismatch', size: checkpoint.size });
      }
      next += 1;
    }
  };
  for (let from = 0; ; ) {
    const rows = await sql.unsafe<LeafRow[]>(
      `SELECT l.leaf_index AS index, l.stream_id AS "streamId", l.stream_position AS position, l.hash,
         e.stream_id AS "eventStream", e.stream_position AS "eventPosition", e.event_type AS type,
         e.metadata ->> 'userId' AS actor, ${eventTime('e.')} AS at,
         encode(sha256(convert_to(e.data::text, 'UTF8')), 'hex') AS "contentHash"
       FROM audit_log_leaves l LEFT JOIN events e ON e.global_position = l.global_position
       WHERE l.leaf_index >= $1 ORDER BY l.leaf_index LIMIT $2`,
      [from, BATCH],
    );
    if (rows.length === 0) break;
    for (const row of rows) {
      const index = Number(row.index);
      if (index !== tree.size) {
        if (index > tree.size) report({ kind: 'leaves-missing', from: tree.size, to: index - 1 });
        // The tree goes on from what is stored: the checkpoints after the gap will not match it.
        while (tree.size < index) tree.append(new Uint8Array(32));
      }
      const stored = new Uint8Array(row.hash);
      if (row.eventStream === null) {
        report({ kind: 'events-missing', from: index, to: index, streams: [row.streamId] });
      } else {
        const leaf = eventLeafHash({
          streamId: row.eventStream,
          position: Number(row.eventPosition),
          type: row.type!,
          contentHash: row.contentHash!,
          actor: row.actor,
          at: row.at!,
        });
        if (!equalHashes(leaf, stored)) {
          report({
            kind: 'event-changed',
            leafIndex: index,
            streamId: row.streamId,
            position: Number(row.position),
          });
        }
      }
      tree.append(stored);
      passCheckpoints();
    }
    from = Number(rows.at(-1)!.index) + 1;
  }
  for (const checkpoint of signed.slice(next)) {
    report({ kind: 'checkpoint-beyond-log', size: checkpoint.size, leaves: tree.size });
  }

  // Events before the log's last leaf in the log's order that have none: written from outside, or sequenced
  // and then their leaves taken away.
  const unlogged = await sql<{ streamId: string; position: string }[]>`
    WITH last AS (
      SELECT transaction_id, global_position FROM audit_log_leaves ORDER BY leaf_index DESC LIMIT 1
    )
    SELECT e.stream_id AS "streamId", e.stream_position AS position
    FROM events e, last
    WHERE (e.transaction_id, e.global_position) <= (last.transaction_id, last.global_position)
      AND NOT EXISTS (SELECT 1 FROM audit_log_leaves l WHERE l.global_position = e.global_position)
    ORDER BY e.transaction_id, e.global_position
    LIMIT ${MAX_PROBLEMS}`;
  for (const event of unlogged) {
    report({ kind: 'not-in-log', streamId: event.streamId, position: Number(event.position) });
  }

  const latest = checkpoints.at(-1);
  return {
    leaves: tree.size,
    checkpointsVerified: verified,
    latest: latest ? { size: Number(latest.size), at: latest.at.toISOString() } : null,
    problems,
    moreProblems: more,
  };
}

/** A problem in one line, for the events tool and the server's log. */
export function problemLine(problem: LogProblem): string {
  switch (problem.kind) {
    case 'leaves-missing':
      return `leaves ${problem.from}-${problem.to} are missing from the audit log`;
    case 'events-missing':
      return `leaves ${problem.from}-${problem.to}: their events are missing (deleted) from ${problem.streams.join(', ')}`;
    case 'event-changed':
      return `leaf ${problem.leafIndex}: ${problem.streamId}#${problem.position} was changed after it was logged`;
    case 'not-in-log':
      return `${problem.streamId}#${problem.position} is not in the audit log (added from outside)`;
    case 'checkpoint-signature':
      return `checkpoint ${problem.size}: its signature does not hold under the audit log's key`;
    case 'checkpoint-mismatch':
      return `checkpoint ${problem.size}: the log no longer gives its signed tree head (rewritten)`;
    case 'checkpoint-beyond-log':
      return `checkpoint ${problem.size} was signed over ${problem.size} leaves, the log holds ${problem.leaves}: its tail was cut`;
  }
}
