import type { Fragment, Sql, TransactionSql } from 'postgres';
import { forbidden, notFound } from '../domain/errors';
import { type Role, WORKSPACE_ROLES } from '../domain/workspace/events';
import { ACTIONS, type Action, mayTakeBack, ROLE_ACTIONS, roleMay } from '../domain/workspace/roles';

export type { Action, Role };
export { ACTIONS };

/**
 * Who may do what to which record: decided here and nowhere else. Routes, the websocket subscription, the
 * versions and history routes, the command handler and the events tool all ask this module, in memory with
 * `may` (or `requireMay`, which answers with the refusal) or inside a query with `mayInSql` (the same rule,
 * for finding and listing records).
 *
 * A record is its owner's alone, or it is in a workspace: then the owner counts for nothing and the actor's
 * role in that workspace decides (owner, editor, reviewer, auditor; no role: not a member, who sees nothing).
 */

/** Who asks: a signed-in user's id, or null for the server itself (the crash sweep, the maintenance tools). */
export type Actor = string | null;

/**
 * What the actor acts on. Flows and executions can be in a workspace; a workspace is its members'; master
 * mode sessions and a user's personal records (saved sessions, API keys and usage, recommendations and
 * patterns) are theirs alone.
 */
export type RecordKind = 'flow' | 'execution' | 'master-session' | 'workspace' | 'personal';

export const RECORD_KINDS: readonly RecordKind[] = [
  'flow',
  'execution',
  'master-session',
  'workspace',
  'personal',
];
export const ROLES: readonly Role[] = WORKSPACE_ROLES;

/** The roles that may do `action` (in a query's terms). */
export const rolesThatMay = (action: Action): Role[] =>
  ROLES.filter((role) => ROLE_ACTIONS[role].includes(action));

/**
 * Whose a record is: its owner's id (a string; null for a record without an owner, which only the server
 * may touch), or the workspace it is in with the actor's role there (null: the actor is not a member).
 */
export type Holder = string | null | WorkspaceHolder;

export interface WorkspaceHolder {
  workspaceId: string;
  role: Role | null;
}

/** The holder of a record that may be in a workspace, once the actor's role there is known. */
export const holderOf = (
  ownerId: string | null,
  workspace: { workspaceId: string | null; role: Role | null },
): Holder =>
  workspace.workspaceId === null ? ownerId : { workspaceId: workspace.workspaceId, role: workspace.role };

/**
 * May `actor` do `action` to a record of `kind` held by `holder` (undefined: no such record)? The server
 * itself may do anything to a record that exists; an owner anything to their own records; a member what
 * their role allows to their workspace's.
 */
export function may(actor: Actor, action: Action, kind: RecordKind, holder: Holder | undefined): boolean {
  if (holder === undefined || !ACTIONS.includes(action) || !RECORD_KINDS.includes(kind)) return false;
  if (actor === null) return true;
  if (holder === null || typeof holder === 'string') return kind !== 'workspace' && holder === actor;
  if (kind === 'master-session' || kind === 'personal') return false;
  return roleMay(holder.role, action);
}

/**
 * `may`, as the answer a request gets when it may not: 404 `{name} not found` to whoever may not even read
 * the record (so nobody learns what another user or workspace has), 403 with the reason to a member who
 * may read it but whose role does not allow `action`.
 */
export function requireMay(
  actor: Actor,
  action: Action,
  kind: RecordKind,
  holder: Holder | undefined,
  name: string,
): void {
  if (may(actor, action, kind, holder)) return;
  if (!may(actor, 'read', kind, holder))
    throw notFound(`Không tìm thấy ${name[0]!.toLowerCase()}${name.slice(1)}`);
  const role = (holder as WorkspaceHolder).role;
  throw forbidden(
    `Vai trò ${role} trong workspace này không được ${ACTION_WORDS[action]} ${KIND_WORDS[kind]} này`,
  );
}

const ACTION_WORDS: Record<Action, string> = {
  read: 'xem',
  change: 'thay đổi',
  run: 'chạy',
  review: 'review',
  watch: 'theo dõi',
  manage: 'quản lý thành viên của',
};

const KIND_WORDS: Record<RecordKind, string> = {
  flow: 'flow',
  execution: 'execution',
  'master-session': 'master mode session',
  workspace: 'workspace',
  personal: 'bản ghi',
};

/** `mayTakeBack`, as the refusal a request gets when it may not. */
export function requireOwnerTakesBack(actor: string, ownerId: string): void {
  if (!mayTakeBack(actor, ownerId))
    throw forbidden("Only the flow's owner may move it back to their own flows");
}

/** Where a query finds a record's holder: its owner column, and its workspace column when it can be in one. */
export type HolderColumns = string | { owner?: string; workspace: string };

/**
 * `may` as a condition of a query over records of `kind` held as `columns` say (`user_id`, or
 * `{ owner: 'f.user_id', workspace: 'f.workspace_id' }`, or `{ workspace: 'w.id' }` for workspaces
 * themselves): true on exactly the rows the actor may act on so.
 */
export function mayInSql(
  sql: Sql | TransactionSql,
  actor: string,
  action: Action,
  kind: RecordKind,
  columns: HolderColumns,
): Fragment {
  if (!ACTIONS.includes(action) || !RECORD_KINDS.includes(kind)) return sql`false`;
  if (typeof columns === 'string') return kind === 'workspace' ? sql`false` : sql`${sql(columns)} = ${actor}`;
  const member = sql`${sql(columns.workspace)} IN (
    SELECT workspace_id FROM workspace_members WHERE user_id = ${actor} AND role IN ${sql(rolesThatMay(action))})`;
  if (columns.owner === undefined) return sql`(${member})`;
  return sql`((${sql(columns.workspace)} IS NULL AND ${sql(columns.owner)} = ${actor}) OR ${member})`;
}

/**
 * The actor's role in the workspace of the record a query reads (`workspaceColumn`), as a column `role`
 * (null: not a member, or the record is in no workspace): what `requireMay` needs to tell a 403 from a 404.
 * The column is named with its table's alias (`e.workspace_id`): a bare `workspace_id` would be the
 * subquery's own column, and give the actor's role in any workspace they are in.
 */
export const roleInSql = (
  sql: Sql | TransactionSql,
  actor: string,
  workspaceColumn: `${string}.${string}`,
): Fragment =>
  sql`(SELECT m.role FROM workspace_members m
       WHERE m.workspace_id = ${sql(workspaceColumn)} AND m.user_id = ${actor}) AS role`;

/** The holder columns of flows and executions (`user_id`, `workspace_id`), under the query's alias for the table. */
export const heldIn = (alias?: string): HolderColumns => {
  const column = (name: string) => (alias ? `${alias}.${name}` : name);
  return { owner: column('user_id'), workspace: column('workspace_id') };
};
