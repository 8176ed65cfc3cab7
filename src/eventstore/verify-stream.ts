import { keyMatches } from './key-check';
import type { Queryable } from './queryable';

/**
 * What checking a stream's hashes found. `head`: the hash of its last event, in hex (since the hashes are no
 * longer chained it covers that event alone; the Merkle log proves what came before it and whether a tail
 * was cut). `firstBadPosition`: the first position whose event was changed, removed, reordered or added
 * without the key.
 */
export type StreamCheck =
  | { streamId: string; verified: true; events: number; head: string | null }
  | { streamId: string; verified: false; events: number; firstBadPosition: number }
  | { streamId: string; verified: false; events: number; keyMismatch: true };

interface CheckRow {
  streamId: string;
  events: number | string;
  version: number | string;
  firstBad: number | string | null;
  head: string | null;
}

/**
 * Checks every event's stored hash with the session's event key (an error without it): the hash of its own
 * content, or for an event recorded while the hashes were chained, of the previous stored hash of its stream
 * and its content (event_hash_checks, migrations/040_event_hash_in_statement.sql). Positions must run 1, 2,
 * 3… and the stream's count must be its recorded version. One stream, or every stream when `streamId` is null. A stream that does
 * not exist answers nothing. Under a key that is not the database's (the key check, key-check.ts) a stream
 * that does not check is named as such (`keyMismatch`), not as changed at a position.
 */
export async function verifyStreams(sql: Queryable, streamId: string | null): Promise<StreamCheck[]> {
  const checks = await checkStreams(sql, streamId);
  if (checks.every((check) => check.verified) || (await keyMatches(sql))) return checks;
  return checks.map((check) =>
    check.verified
      ? check
      : { streamId: check.streamId, verified: false, events: check.events, keyMismatch: true },
  );
}

async function checkStreams(sql: Queryable, streamId: string | null): Promise<StreamCheck[]> {
  const rows = await sql<CheckRow[]>`
    WITH key AS MATERIALIZED (SELECT event_chain_key() AS key),
    chain AS (
      SELECT e.stream_id, e.stream_position, e.hash,
        row_number() OVER w AS expected,
        event_hash_checks(key.key, e.hash, lag(e.hash) OVER w, e.stream_id, e.stream_position,
                          e.event_type, e.metadata, e.data) AS checks
      FROM events e, key
      ${streamId === null ? sql`` : sql`WHERE e.stream_id = ${streamId}`}
      WINDOW w AS (PARTITION BY e.stream_id ORDER BY e.stream_position)
    ),
    checked AS (
      SELECT stream_id, count(*) AS events,
        min(expected) FILTER (WHERE stream_position <> expected OR checks IS NOT TRUE) AS first_bad,
        encode((array_agg(hash ORDER BY stream_position DESC))[1], 'hex') AS head
      FROM chain GROUP BY stream_id
    )
    SELECT s.stream_id AS "streamId", coalesce(c.events, 0) AS events, s.version AS version,
      c.first_bad AS "firstBad", c.head AS head
    FROM streams s LEFT JOIN checked c ON c.stream_id = s.stream_id
    ${streamId === null ? sql`` : sql`WHERE s.stream_id = ${streamId}`}
    ORDER BY s.stream_id`;
  return rows.map((row) => {
    const events = Number(row.events);
    const version = Number(row.version);
    // Events missing at the end (or beyond the recorded version) are bad from the first position they should
    // (or should not) have.
    const cut = events === version ? null : Math.min(events, version) + 1;
    const found = row.firstBad === null ? null : Number(row.firstBad);
    const firstBad = found === null ? cut : cut === null ? found : Math.min(found, cut);
    return firstBad === null
      ? { streamId: row.streamId, verified: true, events, head: row.head }
      : { streamId: row.streamId, verified: false, events, firstBadPosition: firstBad };
  });
}

/** Each event's hash by stream position, in hex (null: stored without one). */
export async function streamHashes(sql: Queryable, streamId: string): Promise<Map<number, string | null>> {
  const rows = await sql<{ position: number | string; hash: string | null }[]>`
    SELECT stream_position AS position, encode(hash, 'hex') AS hash FROM events
    WHERE stream_id = ${streamId} ORDER BY stream_position`;
  return new Map(rows.map((row) => [Number(row.position), row.hash]));
}
