import type { Queryable } from './queryable';
import { type RecordedEventRow, recordedEventColumns, toRecordedEvent } from './recorded-event';
import type { RecordedEvent } from './types';

/** The most streams one statement of readStreamsAfter asks for; more are read in statements of this many. */
const STREAMS_PER_READ = 1_000;

/**
 * The events of many streams, each after its own position, in a statement per STREAMS_PER_READ streams rather
 * than one per stream: a reader that keeps what it folded (the experiments' comparison) asks for thousands of
 * streams and mostly gets nothing new. Each stream's events in position order; a stream with none is absent.
 */
export async function readStreamsAfter(
  sql: Queryable,
  from: readonly { streamId: string; after: number }[],
): Promise<Map<string, RecordedEvent[]>> {
  const read = new Map<string, RecordedEvent[]>();
  for (let start = 0; start < from.length; start += STREAMS_PER_READ) {
    const asked = from.slice(start, start + STREAMS_PER_READ).map(({ streamId, after }) => [streamId, after]);
    const rows = await sql<RecordedEventRow[]>`
      SELECT ${recordedEventColumns(sql)}
      FROM jsonb_array_elements(${JSON.stringify(asked)}::text::jsonb) a
      JOIN events ON events.stream_id = a ->> 0 AND events.stream_position > (a ->> 1)::bigint
      ORDER BY events.stream_id, events.stream_position`;
    for (const row of rows) {
      const event = toRecordedEvent(row);
      const events = read.get(event.streamId);
      if (events) events.push(event);
      else read.set(event.streamId, [event]);
    }
  }
  return read;
}
