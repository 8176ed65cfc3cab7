import type { Sql } from 'postgres';
import { notFound } from '../../domain/errors';
import { MEMBER_NOT_FOUND, WORKSPACE_NOT_FOUND } from '../../domain/workspace/decider';
import { mayInSql, type Role } from '../access';
import type { Stored } from '../http/answer-schemas';
import { type Keyed, keyset, type ListOrder, type Page } from '../http/pages';

/** A workspace in the list of the signed-in user's workspaces, with their role there. */
export interface WorkspaceListRow {
  id: string;
  name: string;
  role: Role;
}

/** A member as the members list shows them. */
export interface MemberRow {
  userId: string;
  name: string;
  email: string;
  role: Role;
  /** When they joined: the list's order (not answered). */
  joinedAt: Date;
}

/** An invitation as its page shows it, with what decides whether it may still be used. */
export interface InvitationRow {
  workspaceName: string;
  inviterName: string;
  role: Role;
  expiresAt: string;
  email: string;
  acceptedBy: string | null;
  revoked: boolean;
}

/** A pending invitation as its workspace's owners list it. */
export interface PendingInvitationRow {
  id: string;
  email: string;
  role: Role;
  invitedBy: { userId: string; name: string };
  createdAt: Date;
  expiresAt: Date;
}

/** The workspaces list's order: newest first (the id orders workspaces made at the same microsecond). */
export const WORKSPACES_ORDER: ListOrder = {
  list: 'workspaces',
  keys: [
    { sql: 'w.created_at', order: 'desc', type: 'timestamptz' },
    { sql: 'w.id', order: 'desc', type: 'uuid' },
  ],
};

/** The pending invitations list's order: newest first (the id orders invitations made at one microsecond). */
export const PENDING_INVITATIONS_ORDER: ListOrder = {
  list: 'pending-invitations',
  keys: [
    { sql: 'i.created_at', order: 'desc', type: 'timestamptz' },
    { sql: 'i.id', order: 'desc', type: 'uuid' },
  ],
};

/**
 * The workspaces' read models: who is a member of which workspace, in which role, and the invitations. A
 * workspace the user is not a member of is missing (404), never shown.
 */
export class WorkspacesRepository {
  constructor(private readonly sql: Sql) {}

  /** The user's role in the workspace; null when they are not a member (or it does not exist). */
  async roleOf(workspaceId: string, userId: string): Promise<Role | null> {
    const [row] = await this.sql<{ role: Role }[]>`
      SELECT role FROM workspace_members WHERE workspace_id = ${workspaceId} AND user_id = ${userId}`;
    return row?.role ?? null;
  }

  /** The workspaces the user is a member of, newest first, with their role in each. */
  list(userId: string, page: Page | null = null): Promise<Keyed<WorkspaceListRow>[]> {
    const { sql } = this;
    const rows = keyset(sql, WORKSPACES_ORDER, page);
    return sql<Keyed<WorkspaceListRow>[]>`
      SELECT w.id, w.name, m.role, ${rows.pageKey}
      FROM workspaces w JOIN workspace_members m ON m.workspace_id = w.id AND m.user_id = ${userId}
      WHERE ${mayInSql(sql, userId, 'read', 'workspace', { workspace: 'w.id' })} AND ${rows.after}
      ${rows.orderBy} ${rows.limit}`;
  }

  /** The workspace's members, first joined first, when the user may read the workspace; otherwise 404. */
  async members(workspaceId: string, userId: string): Promise<MemberRow[]> {
    const { sql } = this;
    const members = await sql<MemberRow[]>`
      SELECT m.user_id, trim(concat_ws(' ', u.first_name, u.last_name)) AS name, u.email, m.role, m.joined_at
      FROM workspace_members m JOIN users u ON u.id = m.user_id
      WHERE m.workspace_id = ${workspaceId}
        AND ${mayInSql(sql, userId, 'read', 'workspace', { workspace: 'm.workspace_id' })}
      ORDER BY m.joined_at, m.user_id`;
    // A workspace always has an owner: no rows means the user may not see it.
    if (members.length === 0) throw notFound(WORKSPACE_NOT_FOUND);
    return members;
  }

  /** One member, as the members list shows them, when the user may read the workspace; otherwise 404. */
  async member(workspaceId: string, memberId: string, userId: string): Promise<MemberRow> {
    const member = (await this.members(workspaceId, userId)).find((each) => each.userId === memberId);
    if (!member) throw notFound(MEMBER_NOT_FOUND);
    return member;
  }

  /** How many workspaces the user is a member of, in any role. */
  async countOf(userId: string): Promise<number> {
    const [row] = await this.sql<{ count: number }[]>`
      SELECT count(*)::int AS count FROM workspace_members WHERE user_id = ${userId}`;
    return row?.count ?? 0;
  }

  /** The account with this e-mail address (any case), if any: never told to a caller. */
  async accountWithEmail(email: string): Promise<string | null> {
    const [row] = await this.sql<{ id: string }[]>`
      SELECT id FROM users WHERE lower(email) = lower(${email}) LIMIT 1`;
    return row?.id ?? null;
  }

  /** The user's e-mail address. */
  async emailOf(userId: string): Promise<string | null> {
    const [row] = await this.sql<{ email: string }[]>`SELECT email FROM users WHERE id = ${userId}`;
    return row?.email ?? null;
  }

  /**
   * An invitation (by its token's hash) as its page shows it: the workspace's name, who invited, in which
   * role, until when; with to whom and whether it was used, for the caller to check. Null: no such token.
   */
  async invitation(tokenHash: string): Promise<InvitationRow | null> {
    const [row] = await this.sql<Stored<InvitationRow, 'expiresAt'>[]>`
      SELECT w.name AS workspace_name, trim(concat_ws(' ', u.first_name, u.last_name)) AS inviter_name,
        i.role, i.expires_at, i.email, i.accepted_by, i.revoked_at IS NOT NULL AS revoked
      FROM workspace_invitations i
        JOIN workspaces w ON w.id = i.workspace_id
        LEFT JOIN users u ON u.id = i.invited_by
      WHERE i.token_hash = ${tokenHash}`;
    return row ? { ...row, expiresAt: row.expiresAt.toISOString() } : null;
  }

  /**
   * The workspace's pending invitations at `at` (isPendingInvitation's rule: not accepted, not revoked, not
   * expired), newest first, with who made each. The caller has checked that the user may manage it.
   */
  pendingInvitations(
    workspaceId: string,
    at: string,
    page: Page | null = null,
  ): Promise<Keyed<PendingInvitationRow>[]> {
    const { sql } = this;
    const rows = keyset(sql, PENDING_INVITATIONS_ORDER, page);
    return sql<Keyed<PendingInvitationRow>[]>`
      SELECT i.id, i.email, i.role, i.created_at, i.expires_at,
        json_build_object('userId', i.invited_by,
          'name', coalesce(trim(concat_ws(' ', u.first_name, u.last_name)), '')) AS invited_by,
        ${rows.pageKey}
      FROM workspace_invitations i LEFT JOIN users u ON u.id = i.invited_by
      WHERE i.workspace_id = ${workspaceId} AND i.accepted_by IS NULL AND i.revoked_at IS NULL
        AND i.expires_at > ${at} AND ${rows.after}
      ${rows.orderBy} ${rows.limit}`;
  }

  /** The workspace an invitation (by its token's hash) is to, whether or not it may still be used. */
  async workspaceOfInvitation(tokenHash: string): Promise<string | null> {
    const [row] = await this.sql<{ workspaceId: string }[]>`
      SELECT workspace_id FROM workspace_invitations WHERE token_hash = ${tokenHash}`;
    return row?.workspaceId ?? null;
  }
}
