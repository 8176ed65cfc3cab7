import type { Queryable } from './queryable';
import { type RecordedEventRow, recordedEventColumns, toRecordedEvent } from './recorded-event';
import type { RecordedEvent } from './types';

/**
 * A stream's version and its events after `after`, in one statement so the version always matches the events
 * (a command decides on those events and appends at that version). Version 0 for a missing stream.
 */
export async function readStream(
  sql: Queryable,
  streamId: string,
  { after = 0, limit }: { after?: number; limit?: number } = {},
): Promise<{ version: number; events: RecordedEvent[] }> {
  const rows = await sql<(RecordedEventRow & { streamVersion: number | string })[]>`
    SELECT s.version AS "streamVersion", e.*
    FROM streams s
    LEFT JOIN LATERAL (
      SELECT ${recordedEventColumns(sql)} FROM events
      WHERE events.stream_id = s.stream_id AND events.stream_position > ${after}
      ORDER BY events.stream_position
      LIMIT ${limit ?? null}
    ) e ON true
    WHERE s.stream_id = ${streamId}`;
  const first = rows[0];
  if (!first) return { version: 0, events: [] };
  return {
    version: Number(first.streamVersion),
    events: rows.filter((row) => row.eventId !== null).map(toRecordedEvent),
  };
}
