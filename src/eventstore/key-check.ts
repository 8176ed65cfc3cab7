import type { Queryable } from './queryable';

/** What a start found of its key: the stored check matched, was stored now, or does not match. */
export type KeyCheck = 'matches' | 'stored' | 'mismatch';

/** How many streams' first events a first start checks its key against, when there are events already. */
const FIRST_EVENTS_CHECKED = 20;

/**
 * Compares the connection's event key with the key check the database holds (migrations/038_event_key_check.sql),
 * storing it at the first start. A database that already has events but no check (made before it) has its key
 * checked on the first events of some streams first: when none of them checks, the key is not theirs and is
 * not stored. Needs the connection's key.
 */
export function checkEventKey(sql: Queryable): Promise<KeyCheck> {
  return compareKey(sql, true);
}

/**
 * Whether the connection's key is the one the database's records were made with: by the stored key check, or
 * without one by the first events of some streams (true when there are none either). Stores nothing.
 */
export async function keyMatches(sql: Queryable): Promise<boolean> {
  return (await compareKey(sql, false)) !== 'mismatch';
}

async function compareKey(sql: Queryable, store: boolean): Promise<KeyCheck> {
  const [stored] = await sql<{ matches: boolean }[]>`
    SELECT check_value = event_key_check_value(event_chain_key()) AS matches FROM event_key_check`;
  if (stored) return stored.matches ? 'matches' : 'mismatch';
  const [first] = await sql<{ events: number | string; matching: number | string }[]>`
    SELECT count(*) AS events,
      count(*) FILTER (WHERE event_hash_checks(event_chain_key(), hash, NULL, stream_id, stream_position,
                                               event_type, metadata, data)) AS matching
    FROM (SELECT * FROM events WHERE stream_position = 1 AND hash IS NOT NULL
          ORDER BY global_position LIMIT ${FIRST_EVENTS_CHECKED}) first_events`;
  if (Number(first?.events ?? 0) > 0 && Number(first?.matching ?? 0) === 0) return 'mismatch';
  if (!store) return 'matches';
  // Two instances starting at once store one check; each then compares with it.
  await sql`
    INSERT INTO event_key_check (check_value) VALUES (event_key_check_value(event_chain_key()))
    ON CONFLICT (only_row) DO NOTHING`;
  const [now] = await sql<{ matches: boolean }[]>`
    SELECT check_value = event_key_check_value(event_chain_key()) AS matches FROM event_key_check`;
  return now?.matches ? 'stored' : 'mismatch';
}

/** What a server, the record check and the events tool say when the key check fails. */
export const KEY_MISMATCH_MESSAGE = "APP_SECRET does not match this database's records (key check failed)";
/** How the record check names it in place of "changed". */
export const KEY_MISMATCH_CHECK = "the key does not match this database's records";
