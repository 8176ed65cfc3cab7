import { AsyncLocalStorage } from 'node:async_hooks';
import type { Fragment, Sql, TransactionSql } from 'postgres';
import { API_TOKEN_OUTSIDE_WORKSPACE, type ApiTokenScope } from '../domain/api-token';
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
  const within = reachOf(actor);
  if (within !== null && (holder === null || typeof holder === 'string' || holder.workspaceId !== within))
    return false;
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
  manage: 'quản lý thành viên và webhook của',
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
  requireOwnRecords(actor);
  if (!mayTakeBack(actor, ownerId))
    throw forbidden('Chỉ chủ sở hữu flow mới được chuyển flow về danh sách flow của mình');
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
  const within = reachOf(actor);
  if (typeof columns === 'string')
    return kind === 'workspace' || within !== null ? sql`false` : sql`${sql(columns)} = ${actor}`;
  const member = sql`${sql(columns.workspace)} IN (
    SELECT workspace_id FROM workspace_members WHERE user_id = ${actor} AND role IN ${sql(rolesThatMay(action))}
    ${within === null ? sql`` : sql`AND workspace_id = ${within}`})`;
  if (columns.owner === undefined || within !== null) return sql`(${member})`;
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
): Fragment => {
  const within = reachOf(actor);
  return sql`(SELECT m.role FROM workspace_members m
       WHERE m.workspace_id = ${sql(workspaceColumn)} AND m.user_id = ${actor}
       ${within === null ? sql`` : sql`AND m.workspace_id = ${within}`}) AS role`;
};

/** The holder columns of flows and executions (`user_id`, `workspace_id`), under the query's alias for the table. */
export const heldIn = (alias?: string): HolderColumns => {
  const column = (name: string) => (alias ? `${alias}.${name}` : name);
  return { owner: column('user_id'), workspace: column('workspace_id') };
};

/**
 * The workspace a workspace API token acts in, for its maker: while a request made with one is answered,
 * the maker is, to every rule above, a member of that workspace alone who owns nothing (`may`, `mayInSql`,
 * `roleInSql` and `requireOwnRecords` narrow to it), so another workspace's records and the maker's own are
 * missing (404), as they are to a stranger. Their role there is read as for any request: the token only
 * narrows. Only the maker is narrowed: what the request does for other people (telling reviewers, pushing
 * to their sockets) is decided for them as always.
 */
export interface Reach {
  userId: string;
  workspaceId: string;
}

const reaches = new AsyncLocalStorage<Reach>();

/** Runs `work` with the actor narrowed to `reach` (null: not narrowed), and whatever it starts. */
export const withinReach = <T>(reach: Reach | null, work: () => T): T =>
  reach === null ? work() : reaches.run(reach, work);

/** The workspace the actor is narrowed to now, or null. */
function reachOf(actor: Actor): string | null {
  const reach = reaches.getStore();
  return reach !== undefined && reach.userId === actor ? reach.workspaceId : null;
}

/**
 * A record made as the actor's own (a flow of their own, a master mode session, a saved session, an own
 * key), or an account's settings changed: refused (404) to a workspace token, which acts only in its
 * workspace.
 */
export function requireOwnRecords(actor: string): void {
  if (reachOf(actor) !== null) throw notFound(API_TOKEN_OUTSIDE_WORKSPACE);
}

/**
 * What an API token must hold to call each operation (keyed as OPERATIONS is, and with the routes the
 * document leaves out: the live updates socket): the one table the bearer check decides by. `public`: no
 * token or session is needed. `session`: not with a token at all (tokens are made and revoked from a
 * signed-in session, so a leaked token cannot make itself another). A scope only narrows: the call is then
 * decided, as for the cookie session, by the maker's role at that moment.
 */
export type OperationScope = ApiTokenScope | 'public' | 'session';

export const OPERATION_SCOPES: Record<string, OperationScope> = {
  'GET /healthz': 'public',
  'GET /readyz': 'public',
  'POST /api/auth/login': 'public',
  'POST /api/auth/register': 'public',
  'GET /api/auth/user': 'read',

  'GET /api/flows': 'read',
  'POST /api/flows': 'write',
  'GET /api/flows/:id': 'read',
  'PUT /api/flows/:id': 'write',
  'DELETE /api/flows/:id': 'write',
  'GET /api/flows/:id/export': 'read',
  'GET /api/flows/:id/verify': 'read',
  'GET /api/flows/:id/versions': 'read',
  'GET /api/flows/:id/versions/:version': 'read',
  'POST /api/flows/:id/move': 'write',
  'POST /api/flows/:id/restore/:version': 'write',

  'GET /api/flows/:flowId/steps': 'read',

  'POST /api/datasets': 'write',
  'GET /api/datasets': 'read',
  'GET /api/datasets/:id': 'read',
  'PATCH /api/datasets/:id': 'write',
  'POST /api/datasets/:id/items': 'write',
  'POST /api/datasets/:id/items/from-execution': 'write',
  'POST /api/datasets/:id/items/:itemId/archive': 'write',
  'POST /api/datasets/:id/items/:itemId/restore': 'write',
  'POST /api/experiments': 'run',
  'GET /api/experiments': 'read',
  'GET /api/experiments/compare': 'read',
  'GET /api/experiments/:id': 'read',
  'POST /api/experiments/:id/stop': 'run',
  'POST /api/experiments/:id/score-again': 'run',
  'POST /api/experiments/:id/promote': 'write',
  'POST /api/steps': 'write',
  'PUT /api/steps/:id': 'write',
  'DELETE /api/steps/:id': 'write',

  'POST /api/flows/:flowId/execute': 'run',
  'GET /api/workspaces/:id/executions': 'read',
  'GET /api/flows/:flowId/executions/latest': 'read',
  'GET /api/flows/:flowId/executions': 'read',
  'GET /api/executions/:id': 'read',
  'POST /api/executions/:id/steps/:stepId/execute': 'run',
  'POST /api/executions/:id/stop': 'run',
  'POST /api/executions/:id/reset': 'run',
  'GET /api/executions/:id/events': 'read',
  'GET /api/executions/:id/verify': 'read',
  'GET /api/executions/:id/audit': 'read',
  'GET /api/audit/public-key': 'read',
  'GET /api/audit/checkpoints': 'read',
  'GET /api/audit/checkpoints/latest': 'read',
  'GET /api/audit/proofs/inclusion': 'read',
  'GET /api/audit/proofs/consistency': 'read',
  'GET /api/flows/:id/audit': 'read',
  'GET /api/workspaces/:id/audit': 'read',
  'GET /api/executions/:id/state': 'read',
  'POST /api/executions/:id/rerun-from/:stepId': 'run',

  'PUT /api/step-results/:id': 'review',
  'DELETE /api/step-results/:id': 'review',

  'GET /api/reviews': 'read',
  'POST /api/reviews/:id/approve': 'review',
  'POST /api/reviews/:id/reject': 'review',
  'POST /api/executions/:id/steps/:stepId/review-requests': 'run',
  'GET /api/executions/:id/reviews/audit': 'read',

  'GET /api/flows/:flowId/logs': 'read',
  'DELETE /api/flows/:flowId/logs': 'write',

  'GET /api/flows/:flowId/context': 'read',
  'POST /api/flows/:flowId/context': 'write',
  'PATCH /api/flows/:flowId/context': 'write',
  'DELETE /api/flows/:flowId/context/rejected-ideas': 'write',

  'GET /api/user/api-keys': 'read',
  'POST /api/user/api-keys': 'write',
  'DELETE /api/user/api-keys/:id': 'write',
  'GET /api/user/usage': 'read',
  'GET /api/models': 'read',

  'GET /api/user/tokens': 'session',
  'POST /api/user/tokens': 'session',
  'DELETE /api/user/tokens/:id': 'session',

  'POST /api/ai/flow-creator/improve': 'write',
  'POST /api/ai/flow-creator/proposal': 'write',
  'POST /api/ai/generate-workflow': 'write',
  'POST /api/ai/create-from-json': 'write',

  'GET /api/flows/:flowId/suggestions': 'read',
  'POST /api/flows/:flowId/suggestions': 'write',
  'DELETE /api/flows/:flowId/suggestions': 'write',

  'GET /api/master-mode/sessions': 'read',
  'GET /api/master-mode/session/:sessionId': 'read',
  'DELETE /api/master-mode/session/:sessionId': 'write',
  'GET /api/master-mode/session/:sessionId/runs': 'read',
  'POST /api/master-mode/standalone': 'write',
  'POST /api/master-mode/import': 'write',
  'POST /api/master-mode/steps': 'write',
  'PUT /api/master-mode/steps/:stepId': 'write',
  'DELETE /api/master-mode/steps/:stepId': 'write',
  'POST /api/master-mode/execute/:stepId': 'run',
  'POST /api/master-mode/execute-all/:sessionId': 'run',
  'GET /api/master-mode/session/:sessionId/execute-all/:runAllId': 'read',
  'POST /api/master-mode/stop/:sessionId': 'run',
  'POST /api/master-mode/reset/:sessionId': 'run',

  'GET /api/user-sessions': 'read',
  'POST /api/user-sessions': 'write',
  'DELETE /api/user-sessions/:id': 'write',
  'POST /api/user-sessions/:id/load': 'write',

  'GET /api/recommendations': 'read',
  'POST /api/recommendations/generate': 'write',
  'GET /api/templates': 'read',
  'GET /api/patterns': 'read',
  'POST /api/recommendations/:id/implement': 'write',
  'POST /api/recommendations/:id/feedback': 'write',

  'GET /api/workspaces': 'read',
  'POST /api/workspaces': 'admin',
  'GET /api/workspaces/:id/members': 'read',
  'POST /api/workspaces/:id/invitations': 'admin',
  'GET /api/workspaces/:id/invitations': 'admin',
  'DELETE /api/workspaces/:id/invitations/:invitationId': 'admin',
  'GET /api/invitations/:token': 'read',
  'POST /api/invitations/:token/accept': 'admin',
  'PUT /api/workspaces/:id/members/:userId': 'admin',
  'DELETE /api/workspaces/:id/members/:userId': 'admin',
  'POST /api/workspaces/:id/webhooks': 'admin',
  'GET /api/workspaces/:id/webhooks': 'admin',
  'DELETE /api/workspaces/:id/webhooks/:hookId': 'admin',
  'GET /api/workspaces/:id/webhooks/:hookId/deliveries': 'admin',
  'POST /api/workspaces/:id/webhooks/:hookId/rotate-secret': 'admin',
  'POST /api/workspaces/:id/webhooks/:hookId/test': 'admin',
  'POST /api/workspaces/:id/webhooks/:hookId/deliveries/:deliveryId/retry': 'admin',

  // Left out of the API document: the live updates socket, its own pages and the document itself.
  'GET /api/ws': 'read',
  'GET /api/openapi.json': 'public',
  'GET /api/login': 'public',
  'GET /api/logout': 'public',
};

/**
 * The scope a token needs for the route `method url` (url as the router matched it, `/api/flows/:id`);
 * undefined for a route of no entry, which no token may call. The API docs' pages need `read`.
 */
export function scopeNeeded(method: string, url: string): OperationScope | undefined {
  if (url === '/api/docs' || url.startsWith('/api/docs/')) return 'read';
  return OPERATION_SCOPES[operationKey(method, url)];
}

/** An operation's key in OPERATION_SCOPES: a HEAD is its GET. */
const operationKey = (method: string, url: string) => `${method === 'HEAD' ? 'GET' : method} ${url}`;

/** Why a token may not call an operation at all, before its maker's role is asked. */
export type TokenRefusal =
  | { kind: 'session-only' }
  | { kind: 'insufficient-scope'; needed: string }
  | { kind: 'outside-workspace' };

/**
 * Whether a token with `scopes` (bound to `workspaceId`, or personal) may call the route `method url` at all:
 * null when it may, and the call is then decided by its maker's role, as with their session; otherwise why
 * not. A route of no entry in OPERATION_SCOPES is refused.
 */
export function tokenRefusal(
  token: { scopes: readonly ApiTokenScope[]; workspaceId: string | null },
  method: string,
  url: string,
): TokenRefusal | null {
  const needed = scopeNeeded(method, url);
  if (needed === 'public') return null;
  if (needed === 'session') return { kind: 'session-only' };
  if (needed === undefined || !token.scopes.includes(needed))
    return { kind: 'insufficient-scope', needed: needed ?? 'session' };
  if (token.workspaceId !== null && PERSONAL_OPERATIONS.has(operationKey(method, url)))
    return { kind: 'outside-workspace' };
  return null;
}

/**
 * The operations on the caller's own records and account (own keys and usage, saved sessions, master mode,
 * recommendations, making a workspace, invitations to them): missing (404) to a workspace token, which acts
 * only in its workspace. A call that may make either (a flow made or moved as one's own, or in a workspace)
 * asks `requireOwnRecords` where it is made.
 */
export const PERSONAL_OPERATIONS: ReadonlySet<string> = new Set([
  'GET /api/user/api-keys',
  'POST /api/user/api-keys',
  'DELETE /api/user/api-keys/:id',
  'GET /api/user/usage',
  ...Object.keys(OPERATION_SCOPES).filter(
    (key) =>
      key.includes(' /api/master-mode/') ||
      key.includes(' /api/user-sessions') ||
      key.includes(' /api/recommendations') ||
      key.includes(' /api/invitations/'),
  ),
  'GET /api/templates',
  'GET /api/patterns',
  'POST /api/workspaces',
]);
