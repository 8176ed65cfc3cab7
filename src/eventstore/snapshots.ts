import type { Queryable } from './queryable';
import { type RecordedEventRow, recordedEventColumns, toRecordedEvent } from './recorded-event';
import type { RecordedEvent } from './types';

/** The table of snapshots: a cache of folds, emptied by a rebuild of the read models. */
export const SNAPSHOTS_TABLE = 'snapshots';

/** An aggregate's state as of `version` of its stream, as `encode` made it. */
export interface Snapshot {
  streamId: string;
  /** The state's shape (StateSnapshot.shape): only a reader of the same shape reads it. */
  shape: string;
  version: number;
  state: unknown;
}

/** A stream read from its newest snapshot of a shape on: the snapshot, if any, and the events after it. */
export interface StreamFromSnapshot {
  /** The stream's version (0: no such stream). */
  version: number;
  /** The snapshot the events follow; null: none of the shape, and the events are all of the stream's. */
  snapshot: { version: number; state: unknown } | null;
  events: RecordedEvent[];
}

type Row = RecordedEventRow & {
  streamVersion: number;
  snapshotVersion: number | null;
  snapshotState: string | null;
};

/**
 * The stream's version, its newest snapshot of `shape` and the events after it, in one statement, so that
 * the snapshot, the events and the version all hold at one moment (as readStream's do). The snapshot's JSON
 * comes on one row only (the first event after it, or the row of no event), not on every event's.
 */
export async function readStreamFromSnapshot(
  sql: Queryable,
  streamId: string,
  shape: string,
): Promise<StreamFromSnapshot> {
  const rows = await sql<Row[]>`
    SELECT s.version AS "streamVersion", snap.version AS "snapshotVersion",
      CASE WHEN e."streamPosition" IS NULL OR e."streamPosition" = snap.version + 1 THEN snap.state::text END
        AS "snapshotState",
      e.*
    FROM streams s
    LEFT JOIN snapshots snap ON snap.stream_id = s.stream_id AND snap.shape = ${shape}
    LEFT JOIN LATERAL (
      SELECT ${recordedEventColumns(sql)} FROM events
      WHERE events.stream_id = s.stream_id AND events.stream_position > COALESCE(snap.version, 0)
      ORDER BY events.stream_position
    ) e ON true
    WHERE s.stream_id = ${streamId}`;
  const first = rows[0];
  if (!first) return { version: 0, snapshot: null, events: [] };
  const version = Number(first.streamVersion);
  const events = rows.filter((row) => row.eventId !== null).map(toRecordedEvent);
  if (first.snapshotVersion === null) return { version, snapshot: null, events };
  return {
    version,
    snapshot: { version: Number(first.snapshotVersion), state: parsed(first.snapshotState) },
    events,
  };
}

/** The stored JSON text as a value; undefined when it is not JSON (a reader then folds the whole stream). */
function parsed(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Stores the snapshot unless one of the stream and shape at an equal or later version is stored already
 * (two writers of one stream keep the newest). A statement to send, in an append's transaction or alone.
 */
export function writeSnapshot(sql: Queryable, { streamId, shape, version, state }: Snapshot) {
  const json = JSON.stringify(state);
  return sql`
    INSERT INTO snapshots (stream_id, shape, version, state)
    VALUES (${streamId}, ${shape}, ${version}, ${json}::text::json)
    ON CONFLICT (stream_id, shape) DO UPDATE
      SET version = excluded.version, state = excluded.state, written_at = now()
      WHERE snapshots.version < excluded.version`;
}
