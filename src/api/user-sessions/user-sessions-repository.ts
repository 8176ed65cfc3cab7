import type { Fragment, Sql } from 'postgres';
import { notFound } from '../../domain/errors';
import { MESSAGES } from '../../domain/execution/decide';
import { FLOW_NOT_FOUND } from '../../domain/flow/decider';

import type { NewUserSession, SessionMode } from '../../domain/user-session';
import { heldIn, mayInSql } from '../access';
import { type Keyed, keyset, type ListOrder, type Page } from '../http/pages';

/** A saved session (a bookmark of where the user works) that is not theirs, or not at all. */
const SAVED_SESSION_NOT_FOUND = 'Không tìm thấy session';

/** A saved session as its owner sees it, with the name of its flow while that flow exists. */
export interface SavedSessionRow {
  id: string;
  userId: string;
  flowId: string | null;
  executionId: string | null;
  sessionName: string;
  sessionData: { description?: string; mode?: SessionMode };
  lastActiveAt: Date;
  createdAt: Date;
  flowName: string | null;
}

/** The user's sessions, the last active first (the id orders sessions made at the same microsecond). */
export const USER_SESSIONS_ORDER: ListOrder = {
  list: 'user-sessions',
  keys: [
    { sql: 's.last_active_at', order: 'desc', type: 'timestamptz' },
    { sql: 's.created_at', order: 'desc', type: 'timestamptz' },
    { sql: 's.id', order: 'desc', type: 'uuid' },
  ],
};

/** The flow and execution a saved session keeps. */
export interface WorkPlace {
  flowId: string | null;
  executionId: string | null;
}

/** A saved session just loaded: where it was, whether its flow still exists, and its stored mode. */
export interface LoadedSession extends WorkPlace {
  mode: unknown;
  flowExists: boolean;
}

/**
 * The `user_sessions` table: saved sessions (named bookmarks of a flow, an execution and a mode), each
 * visible to its owner only; another user's id reads as missing.
 */
export class UserSessionsRepository {
  constructor(private readonly sql: Sql) {}

  /** The sessions the user may read, as listed; `pageKey` adds a list's sort keys. */
  private select(userId: string, pageKey?: Fragment) {
    const { sql } = this;
    return sql`
      SELECT s.id, s.user_id, s.flow_id, s.execution_id, s.session_name, s.session_data, s.last_active_at,
             s.created_at, f.name AS flow_name ${pageKey ? sql`, ${pageKey}` : sql``}
      FROM user_sessions s LEFT JOIN flows f ON f.id = s.flow_id AND f.user_id = s.user_id
      WHERE ${mayInSql(this.sql, userId, 'read', 'personal', 's.user_id')}`;
  }

  /** The user's sessions, the last active first. */
  list(userId: string, page: Page | null = null): Promise<Keyed<SavedSessionRow>[]> {
    const { sql } = this;
    const rows = keyset(sql, USER_SESSIONS_ORDER, page);
    return sql<Keyed<SavedSessionRow>[]>`
      ${this.select(userId, rows.pageKey)} AND ${rows.after} ${rows.orderBy} ${rows.limit}`;
  }

  /**
   * The flow and execution a new session keeps. Named ids must be the user's (404 otherwise); an execution
   * brings its flow, a flow its latest execution. With neither, it is what the user works on now: the
   * execution they started last, else the flow they changed last, else nothing (the flows list).
   */
  async workPlaceOf(userId: string, input: NewUserSession): Promise<WorkPlace> {
    const { sql } = this;
    if (input.executionId) {
      const [execution] = await sql<{ id: string; flowId: string }[]>`
        SELECT e.id, e.flow_id FROM executions e
        JOIN flows f ON f.id = e.flow_id AND ${mayInSql(sql, userId, 'read', 'flow', heldIn('f'))}
        WHERE e.id = ${input.executionId} AND ${mayInSql(sql, userId, 'read', 'execution', heldIn('e'))}`;
      if (!execution || (input.flowId && execution.flowId !== input.flowId)) {
        throw notFound(MESSAGES.executionNotFound);
      }
      return { flowId: execution.flowId, executionId: execution.id };
    }
    if (input.flowId) {
      const [flow] = await sql<{ id: string; executionId: string | null }[]>`
        SELECT f.id, (SELECT e.id FROM executions e
                      WHERE e.flow_id = f.id AND ${mayInSql(sql, userId, 'read', 'execution', heldIn('e'))}
                      ORDER BY e.started_at DESC LIMIT 1) AS execution_id
        FROM flows f WHERE f.id = ${input.flowId} AND ${mayInSql(sql, userId, 'read', 'flow', heldIn('f'))}`;
      if (!flow) throw notFound(FLOW_NOT_FOUND);
      return { flowId: flow.id, executionId: flow.executionId };
    }
    const [latest] = await sql<{ id: string; flowId: string }[]>`
      SELECT e.id, e.flow_id FROM executions e
      JOIN flows f ON f.id = e.flow_id AND ${mayInSql(sql, userId, 'read', 'flow', heldIn('f'))}
      WHERE e.user_id = ${userId} ORDER BY e.started_at DESC LIMIT 1`;
    if (latest) return { flowId: latest.flowId, executionId: latest.id };
    const [flow] = await sql<{ id: string }[]>`
      SELECT id FROM flows WHERE ${mayInSql(sql, userId, 'read', 'flow', heldIn())} ORDER BY updated_at DESC, created_at DESC LIMIT 1`;
    return { flowId: flow?.id ?? null, executionId: null };
  }

  /** Saves a session at `place`; answers it as listed. */
  async create(
    userId: string,
    place: WorkPlace,
    sessionName: string,
    sessionData: SavedSessionRow['sessionData'],
  ): Promise<SavedSessionRow> {
    const { sql } = this;
    const [created] = await sql<{ id: string }[]>`
      INSERT INTO user_sessions (user_id, flow_id, execution_id, session_name, session_data)
      VALUES (${userId}, ${place.flowId}, ${place.executionId}, ${sessionName}, ${sql.json(sessionData)})
      RETURNING id`;
    const [session] = await sql<SavedSessionRow[]>`${this.select(userId)} AND s.id = ${created!.id}`;
    return session!;
  }

  /** Deletes the user's session; 404 when there is none of theirs with that id. */
  async delete(id: string, userId: string): Promise<void> {
    const deleted = await this.sql`DELETE FROM user_sessions
      WHERE id = ${id} AND ${mayInSql(this.sql, userId, 'change', 'personal', 'user_id')} RETURNING id`;
    if (deleted.length === 0) throw notFound(SAVED_SESSION_NOT_FOUND);
  }

  /** Marks the user's session active now and reads where it was; 404 when there is none of theirs. */
  async load(id: string, userId: string): Promise<LoadedSession> {
    const [session] = await this.sql<LoadedSession[]>`
      UPDATE user_sessions s SET last_active_at = now()
      WHERE s.id = ${id} AND ${mayInSql(this.sql, userId, 'change', 'personal', 's.user_id')}
      RETURNING s.flow_id, s.execution_id, s.session_data->>'mode' AS mode,
                EXISTS (SELECT 1 FROM flows f WHERE f.id = s.flow_id AND f.user_id = s.user_id) AS flow_exists`;
    if (!session) throw notFound(SAVED_SESSION_NOT_FOUND);
    return session;
  }
}
