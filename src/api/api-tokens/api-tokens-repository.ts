import type { Sql } from 'postgres';
import {
  API_TOKEN_NOT_FOUND,
  API_TOKEN_USE_WRITE_MS,
  API_TOKENS_USED_UP,
  type ApiTokenScope,
  MAX_API_TOKENS_PER_USER,
  type NewApiToken,
} from '../../domain/api-token';
import { notFound, ruleViolated } from '../../domain/errors';
import { mayInSql } from '../access';
import { newTokenSecret, sameHash, tokenHashOf } from './api-token-secret';

/** A token as its maker sees it: never the token itself. */
export interface ListedToken {
  id: string;
  name: string;
  scopes: ApiTokenScope[];
  workspaceId: string | null;
  /** The workspace's name while the maker is a member; null for a personal token. */
  workspaceName: string | null;
  createdAt: Date;
  expiresAt: Date;
  lastUsedAt: Date | null;
  lastUsedFrom: string | null;
}

/** A token that holds now, as a request presenting it is answered with. */
export interface HeldToken {
  id: string;
  userId: string;
  scopes: ApiTokenScope[];
  workspaceId: string | null;
}

/**
 * A socket opened with a token is known to the hub as `token:<id>`, where one opened with the cookie is known
 * by its session's id: a revocation is told on the sign-outs' channel under that name.
 */
export const TOKEN_SOCKET_PREFIX = 'token:';

/**
 * The `api_tokens` table: each user's API tokens, stored as their hashes. A token is found by its hash on
 * every request (the unique index), so revoking (deleting) it or its expiry holds on every process at once.
 */
export class ApiTokensRepository {
  constructor(
    private readonly sql: Sql,
    /** The channel sign-outs are told on: a revoked token's sockets are closed like a session's. */
    private readonly endedChannel: string,
  ) {}

  private select(userId: string) {
    const { sql } = this;
    return sql`
      SELECT t.id, t.name, t.scopes, t.workspace_id, w.name AS workspace_name, t.created_at, t.expires_at,
             t.last_used_at, t.last_used_from
      FROM api_tokens t
      LEFT JOIN workspaces w ON w.id = t.workspace_id
        AND ${mayInSql(sql, userId, 'read', 'workspace', { workspace: 'w.id' })}
      WHERE ${mayInSql(sql, userId, 'read', 'personal', 't.user_id')}`;
  }

  /** The user's tokens, the newest first, expired ones too (until revoked). */
  list(userId: string): Promise<ListedToken[]> {
    return this.sql<ListedToken[]>`${this.select(userId)} ORDER BY t.created_at DESC, t.id DESC`;
  }

  /**
   * Makes a token: answers it as listed, with the token itself (never to be read again). Expired tokens count
   * until they are revoked, so what a user keeps stays bounded. The count of the user's tokens and the insert
   * hold the user's row, so two at once cannot pass the limit together.
   */
  async create(userId: string, input: NewApiToken): Promise<ListedToken & { token: string }> {
    const token = newTokenSecret();
    const id = await this.sql.begin(async (sql) => {
      await sql`SELECT 1 FROM users WHERE id = ${userId} FOR UPDATE`;
      const [held] = await sql<{ count: number }[]>`
        SELECT count(*)::int AS count FROM api_tokens WHERE user_id = ${userId}`;
      if (held!.count >= MAX_API_TOKENS_PER_USER) throw ruleViolated(API_TOKENS_USED_UP);
      const [row] = await sql<{ id: string }[]>`
        INSERT INTO api_tokens (user_id, name, token_hash, scopes, workspace_id, expires_at)
        VALUES (${userId}, ${input.name}, ${tokenHashOf(token)}, ${input.scopes}::text[],
                ${input.workspaceId ?? null}, now() + make_interval(days => ${input.expiresInDays}))
        RETURNING id`;
      return row!.id;
    });
    const [listed] = await this.sql<ListedToken[]>`${this.select(userId)} AND t.id = ${id}`;
    return { ...listed!, token };
  }

  /**
   * Revokes the user's token: deleted, and its open sockets told to close on every process. 404 when there
   * is none of theirs with that id.
   */
  async revoke(id: string, userId: string): Promise<void> {
    const { sql } = this;
    const revoked = await sql`
      WITH revoked AS (
        DELETE FROM api_tokens
        WHERE id = ${id} AND ${mayInSql(sql, userId, 'change', 'personal', 'user_id')} RETURNING id)
      SELECT pg_notify(${this.endedChannel}, ${TOKEN_SOCKET_PREFIX} || id::text) FROM revoked`;
    if (revoked.length === 0) throw notFound(API_TOKEN_NOT_FOUND);
  }

  /**
   * The token presented, if it holds now (exists, not expired). Its last use (time and address) is written in
   * the same statement, at most once every API_TOKEN_USE_WRITE_MS: most calls only read.
   */
  async holding(token: string, from: string): Promise<HeldToken | undefined> {
    const hash = tokenHashOf(token);
    const [row] = await this.sql<(HeldToken & { tokenHash: string })[]>`
      WITH found AS (
        SELECT id, user_id, scopes, workspace_id, token_hash, last_used_at FROM api_tokens
        WHERE token_hash = ${hash} AND expires_at > now()),
      used AS (
        UPDATE api_tokens t SET last_used_at = now(), last_used_from = ${from}
        FROM found
        WHERE t.id = found.id
          AND (found.last_used_at IS NULL
               OR found.last_used_at < now() - make_interval(secs => ${API_TOKEN_USE_WRITE_MS / 1000})))
      SELECT id, user_id, scopes, workspace_id, token_hash FROM found`;
    if (!row || !sameHash(row.tokenHash, hash)) return undefined;
    return { id: row.id, userId: row.userId, scopes: row.scopes, workspaceId: row.workspaceId };
  }

  /** When each of the named tokens expires (ms since epoch), for those that still hold. */
  async expiries(ids: string[]): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const rows = await this.sql<{ id: string; expiresAt: Date }[]>`
      SELECT id, expires_at FROM api_tokens WHERE id = ANY(${ids}::uuid[]) AND expires_at > now()`;
    return new Map(rows.map((row) => [row.id, new Date(row.expiresAt).getTime()]));
  }
}
