import { randomUUID } from 'node:crypto';
import { checkEventSizes, MAX_EVENT_BYTES } from './event-size';
import type { Queryable } from './queryable';
import type { EventMetadata, ExpectedVersion, NewEvent, RecordedEvent } from './types';

export interface AppendToStream {
  streamId: string;
  streamType: string;
  expectedVersion: ExpectedVersion;
  events: NewEvent[];
}

interface EventToInsert {
  eventId: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
}

interface InsertedRow {
  globalPosition: number | string;
  transactionId: string;
  streamPosition: number | string;
  createdAt: Date | string;
}

/**
 * Claims the stream's next versions and inserts the events, as ONE statement: the claim is a conditional
 * UPDATE (an INSERT for a new stream) in a CTE and the events are inserted from its row, so when the claim
 * matches nothing, nothing is inserted. One statement is one transaction and one round trip, which is what
 * lets an append cost about as much as a plain INSERT. Each event's keyed hash is computed by the statement
 * too (event_hash, migrations/040_event_hash_in_statement.sql), the session's key read once: a connection
 * without the key cannot append.
 *
 * Returns the recorded events, or [] when the claim matched nothing (a conflict). Stream positions are
 * contiguous from the claimed version.
 */
export async function appendToStream(sql: Queryable, append: AppendToStream): Promise<RecordedEvent[]> {
  if (append.events.length === 1) return appendOne(sql, append, append.events[0]!);
  const at = new Date().toISOString();
  const events: EventToInsert[] = append.events.map((event) => ({
    eventId: randomUUID(),
    type: event.type,
    data: event.data ?? null,
    metadata: { ...event.metadata, at: event.metadata?.at ?? at },
  }));
  // The batch travels as one JSON text parameter: one statement text for any batch size (prepared once), and
  // no dependence on the array types postgres.js fetches when a connection opens. Cast from text because
  // postgres.js would JSON-encode a string again if the server described the parameter as jsonb.
  const batch = JSON.stringify(events);
  checkEventSizes(batch, events);
  const rows = await insertClaimed(sql, append, batch);
  if (rows.length === 0) return [];
  // What was stored is what the batch says once through JSON; only the database knows the rest.
  const stored = JSON.parse(batch) as EventToInsert[];
  const firstPosition = Math.min(...rows.map((row) => Number(row.streamPosition)));
  return rows
    .map((row): RecordedEvent => {
      const streamPosition = Number(row.streamPosition);
      const event = stored[streamPosition - firstPosition]!;
      return {
        globalPosition: Number(row.globalPosition),
        transactionId: row.transactionId,
        streamId: append.streamId,
        streamPosition,
        eventId: event.eventId,
        type: event.type,
        data: event.data,
        metadata: event.metadata,
        createdAt: isoTime(row.createdAt),
      };
    })
    .sort((a, b) => a.streamPosition - b.streamPosition);
}

/**
 * appendToStream for one event, the common case (a command's one event): its data and metadata travel as two
 * JSON text parameters of a statement of their own, with no batch to unpack. Stored and returned as the batch
 * path stores and returns them (once through JSON).
 */
async function appendOne(sql: Queryable, append: AppendToStream, event: NewEvent): Promise<RecordedEvent[]> {
  const eventId = randomUUID();
  const data = JSON.stringify(event.data ?? null);
  const metadata = JSON.stringify({ ...event.metadata, at: event.metadata?.at ?? new Date().toISOString() });
  // Measured as the batch path measures an event (its JSON object), and only when it could be too large: the
  // object's JSON is at most its parts, the type escaped (6 characters a character at most) and 100 more, and
  // a character is at most 3 bytes of UTF-8.
  if ((data.length + metadata.length + 6 * event.type.length + 100) * 3 > MAX_EVENT_BYTES) {
    const stored = { eventId, type: event.type, data: JSON.parse(data), metadata: JSON.parse(metadata) };
    checkEventSizes(JSON.stringify([stored]), [stored]);
  }
  const [row] = await insertOneClaimed(sql, append, eventId, event.type, data, metadata);
  if (!row) return [];
  return [
    {
      globalPosition: Number(row.globalPosition),
      transactionId: row.transactionId,
      streamId: append.streamId,
      streamPosition: Number(row.streamPosition),
      eventId,
      type: event.type,
      data: JSON.parse(data),
      metadata: JSON.parse(metadata) as EventMetadata,
      createdAt: isoTime(row.createdAt),
    },
  ];
}

/** postgres.js gives a timestamptz as a Date; its ISO text. */
const isoTime = (time: Date | string) => (time instanceof Date ? time : new Date(time)).toISOString();

/**
 * The one-event statements, one text per kind of claim (as insertClaimed's). The event is one materialized
 * row with the session's key (its JSON parsed once) and the stream's id comes from the claim, so the columns
 * and the hash read each value from one place and each travels once.
 */
function insertOneClaimed(
  sql: Queryable,
  append: AppendToStream,
  eventId: string,
  type: string,
  data: string,
  metadata: string,
) {
  const { streamId, streamType, expectedVersion } = append;
  if (expectedVersion === 'any') {
    return sql<InsertedRow[]>`
      WITH e AS MATERIALIZED (
        SELECT ${eventId}::uuid AS event_id, ${type}::text AS type, ${data}::text::jsonb AS data,
          ${metadata}::text::jsonb AS metadata, event_chain_key() AS key
      ),
      stream AS (
        INSERT INTO streams (stream_id, stream_type, version)
        VALUES (${streamId}::text, ${streamType}::text, 1)
        ON CONFLICT (stream_id) DO UPDATE SET version = streams.version + 1, updated_at = now()
        RETURNING stream_id, version
      )
      INSERT INTO events (stream_id, stream_position, event_id, event_type, data, metadata, hash)
      SELECT stream.stream_id, stream.version, e.event_id, e.type, e.data, e.metadata,
        event_hash(e.key, stream.stream_id, stream.version, e.type, e.metadata, e.data)
      FROM stream, e
      RETURNING global_position AS "globalPosition", transaction_id::text AS "transactionId",
        stream_position AS "streamPosition", created_at AS "createdAt"`;
  }
  if (expectedVersion === 'no_stream' || expectedVersion === 0) {
    // DO NOTHING waits for a concurrent creator to finish, then claims nothing: that race is a conflict.
    return sql<InsertedRow[]>`
      WITH e AS MATERIALIZED (
        SELECT ${eventId}::uuid AS event_id, ${type}::text AS type, ${data}::text::jsonb AS data,
          ${metadata}::text::jsonb AS metadata, event_chain_key() AS key
      ),
      stream AS (
        INSERT INTO streams (stream_id, stream_type, version)
        VALUES (${streamId}::text, ${streamType}::text, 1)
        ON CONFLICT (stream_id) DO NOTHING
        RETURNING stream_id, version
      )
      INSERT INTO events (stream_id, stream_position, event_id, event_type, data, metadata, hash)
      SELECT stream.stream_id, stream.version, e.event_id, e.type, e.data, e.metadata,
        event_hash(e.key, stream.stream_id, stream.version, e.type, e.metadata, e.data)
      FROM stream, e
      RETURNING global_position AS "globalPosition", transaction_id::text AS "transactionId",
        stream_position AS "streamPosition", created_at AS "createdAt"`;
  }
  // A concurrent append holds the row until it commits; the WHERE is then re-checked against its version.
  return sql<InsertedRow[]>`
    WITH e AS MATERIALIZED (
      SELECT ${eventId}::uuid AS event_id, ${type}::text AS type, ${data}::text::jsonb AS data,
        ${metadata}::text::jsonb AS metadata, event_chain_key() AS key
    ),
    stream AS (
      UPDATE streams SET version = version + 1, updated_at = now()
      WHERE stream_id = ${streamId} AND version = ${expectedVersion}
      RETURNING stream_id, version
    )
    INSERT INTO events (stream_id, stream_position, event_id, event_type, data, metadata, hash)
    SELECT stream.stream_id, stream.version, e.event_id, e.type, e.data, e.metadata,
      event_hash(e.key, stream.stream_id, stream.version, e.type, e.metadata, e.data)
    FROM stream, e
    RETURNING global_position AS "globalPosition", transaction_id::text AS "transactionId",
      stream_position AS "streamPosition", created_at AS "createdAt"`;
}

/** One statement text per kind of claim, each written out whole (no nested fragments: this is the hot path). */
function insertClaimed(sql: Queryable, append: AppendToStream, batch: string) {
  const { streamId, streamType, expectedVersion } = append;
  const count = append.events.length;
  if (expectedVersion === 'any') {
    return sql<InsertedRow[]>`
      WITH key AS MATERIALIZED (SELECT event_chain_key() AS key),
      stream AS (
        INSERT INTO streams (stream_id, stream_type, version)
        VALUES (${streamId}::text, ${streamType}::text, ${count}::bigint)
        ON CONFLICT (stream_id) DO UPDATE SET version = streams.version + excluded.version, updated_at = now()
        RETURNING version
      )
      INSERT INTO events (stream_id, stream_position, event_id, event_type, data, metadata, hash)
      SELECT ${streamId}, stream.version - ${count} + e.n, (e.event ->> 'eventId')::uuid, e.event ->> 'type',
        e.event -> 'data', e.event -> 'metadata',
        event_hash(key.key, ${streamId}, stream.version - ${count} + e.n, e.event ->> 'type', e.event -> 'metadata',
                   e.event -> 'data')
      FROM stream, key, jsonb_array_elements(${batch}::text::jsonb) WITH ORDINALITY AS e(event, n)
      ORDER BY e.n
      RETURNING global_position AS "globalPosition", transaction_id::text AS "transactionId",
        stream_position AS "streamPosition", created_at AS "createdAt"`;
  }
  if (expectedVersion === 'no_stream' || expectedVersion === 0) {
    // DO NOTHING waits for a concurrent creator to finish, then claims nothing: that race is a conflict.
    return sql<InsertedRow[]>`
      WITH key AS MATERIALIZED (SELECT event_chain_key() AS key),
      stream AS (
        INSERT INTO streams (stream_id, stream_type, version)
        VALUES (${streamId}::text, ${streamType}::text, ${count}::bigint)
        ON CONFLICT (stream_id) DO NOTHING
        RETURNING version
      )
      INSERT INTO events (stream_id, stream_position, event_id, event_type, data, metadata, hash)
      SELECT ${streamId}, stream.version - ${count} + e.n, (e.event ->> 'eventId')::uuid, e.event ->> 'type',
        e.event -> 'data', e.event -> 'metadata',
        event_hash(key.key, ${streamId}, stream.version - ${count} + e.n, e.event ->> 'type', e.event -> 'metadata',
                   e.event -> 'data')
      FROM stream, key, jsonb_array_elements(${batch}::text::jsonb) WITH ORDINALITY AS e(event, n)
      ORDER BY e.n
      RETURNING global_position AS "globalPosition", transaction_id::text AS "transactionId",
        stream_position AS "streamPosition", created_at AS "createdAt"`;
  }
  // A concurrent append holds the row until it commits; the WHERE is then re-checked against its version.
  return sql<InsertedRow[]>`
    WITH key AS MATERIALIZED (SELECT event_chain_key() AS key),
    stream AS (
      UPDATE streams SET version = version + ${count}, updated_at = now()
      WHERE stream_id = ${streamId} AND version = ${expectedVersion}
      RETURNING version
    )
    INSERT INTO events (stream_id, stream_position, event_id, event_type, data, metadata, hash)
    SELECT ${streamId}, stream.version - ${count} + e.n, (e.event ->> 'eventId')::uuid, e.event ->> 'type',
      e.event -> 'data', e.event -> 'metadata',
      event_hash(key.key, ${streamId}, stream.version - ${count} + e.n, e.event ->> 'type', e.event -> 'metadata',
                 e.event -> 'data')
    FROM stream, key, jsonb_array_elements(${batch}::text::jsonb) WITH ORDINALITY AS e(event, n)
    ORDER BY e.n
    RETURNING global_position AS "globalPosition", transaction_id::text AS "transactionId",
      stream_position AS "streamPosition", created_at AS "createdAt"`;
}
