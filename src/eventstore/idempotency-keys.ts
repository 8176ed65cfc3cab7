import type { Queryable } from './queryable';
import { type RecordedEventRow, recordedEventColumns, toRecordedEvent } from './recorded-event';
import type { RecordedEvent } from './types';

/** A client's key for a command: unique within its scope (the user who sent it). */
export interface IdempotencyKey {
  scope: string;
  key: string;
  /** What the key was first used for: the same key for another command is refused, not answered. */
  commandType: string;
}

/** A command a key was first used for, and the events it appended. */
export interface KeyedCommand {
  commandType: string;
  streamId: string;
  events: RecordedEvent[];
}

/** The key was taken by a command that committed first: the append that tried it is rolled back. */
export class KeyTaken extends Error {
  override name = 'KeyTaken';
}

/**
 * Records the key for the events just appended, in their transaction. The primary key decides: a request
 * holding the same key in a transaction not yet committed makes this wait for it, and when that one
 * commits, PostgreSQL refuses this one (`isKeyTaken`), which fails the transaction.
 */
export function recordKey(
  tx: Queryable,
  { scope, key, commandType }: IdempotencyKey,
  recorded: RecordedEvent[],
) {
  const first = recorded[0]!;
  const last = recorded.at(-1)!;
  return tx`
    INSERT INTO idempotency_keys (scope, key, command_type, stream_id, from_position, to_position)
    VALUES (${scope}, ${key}, ${commandType}, ${first.streamId}, ${first.streamPosition}, ${last.streamPosition})`;
}

/** Whether PostgreSQL refused a key recorded by `recordKey` because another command holds it. */
export function isKeyTaken(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, constraint_name: constraint } = error as { code?: unknown; constraint_name?: unknown };
  return code === '23505' && constraint === 'idempotency_keys_pkey';
}

/** The command a key was first used for, or null when the key is new. */
export async function findKeyedCommand(
  sql: Queryable,
  scope: string,
  key: string,
): Promise<KeyedCommand | null> {
  const rows = await sql<(RecordedEventRow & { commandType: string; keyStreamId: string })[]>`
    SELECT k.command_type AS "commandType", k.stream_id AS "keyStreamId", e.*
    FROM idempotency_keys k
    LEFT JOIN LATERAL (
      SELECT ${recordedEventColumns(sql)} FROM events
      WHERE events.stream_id = k.stream_id AND events.stream_position BETWEEN k.from_position AND k.to_position
      ORDER BY events.stream_position
    ) e ON true
    WHERE k.scope = ${scope} AND k.key = ${key}`;
  const first = rows[0];
  if (!first) return null;
  return {
    commandType: first.commandType,
    streamId: first.keyStreamId,
    events: rows.filter((row) => row.eventId !== null).map(toRecordedEvent),
  };
}
