import type { Fragment, Sql, TransactionSql } from 'postgres';

/**
 * Who may do what to which record: decided here and nowhere else. Routes, the websocket subscription, the
 * versions and history routes, the command handler and the events tool all ask this module, in memory with
 * `may` or inside a query with `mayInSql` (the same rule, for finding and listing records).
 */

/** Who asks: a signed-in user's id, or null for the server itself (the crash sweep, the maintenance tools). */
export type Actor = string | null;

/** What the actor wants to do. */
export type Action = 'read' | 'change' | 'run' | 'watch';

/**
 * What the actor acts on. Flows, executions and master mode sessions are work that can be shared; a user's
 * personal records (saved sessions, API keys and usage, recommendations and patterns) are theirs alone.
 */
export type RecordKind = 'flow' | 'execution' | 'master-session' | 'personal';

export const ACTIONS: readonly Action[] = ['read', 'change', 'run', 'watch'];
export const RECORD_KINDS: readonly RecordKind[] = ['flow', 'execution', 'master-session', 'personal'];

/**
 * May `actor` do `action` to a record of `kind` owned by `ownerId` (undefined: no such record)? Today every
 * kind and action has the same answer: the owner may, nobody else; the server itself may do anything.
 */
export function may(
  actor: Actor,
  action: Action,
  kind: RecordKind,
  ownerId: string | null | undefined,
): boolean {
  if (ownerId === undefined || !ACTIONS.includes(action) || !RECORD_KINDS.includes(kind)) return false;
  return actor === null || ownerId === actor;
}

/**
 * `may` as a condition of a query over records of `kind` whose owner is in `ownerColumn` (`user_id`,
 * `f.user_id`): true on exactly the rows the actor may act on so.
 */
export function mayInSql(
  sql: Sql | TransactionSql,
  actor: string,
  action: Action,
  kind: RecordKind,
  ownerColumn: string,
): Fragment {
  if (!ACTIONS.includes(action) || !RECORD_KINDS.includes(kind)) return sql`false`;
  return sql`${sql(ownerColumn)} = ${actor}`;
}
