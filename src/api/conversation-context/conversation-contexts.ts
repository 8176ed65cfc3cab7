import type { Sql } from 'postgres';
import {
  type ConversationContextView,
  type ConversationTurn,
  conversationHistoryText,
  type RejectedIdea,
  rejectedIdeasText,
} from '../../domain/conversation-context';
import { conflict, notFound } from '../../domain/errors';
import type { ConversationContext } from '../../domain/execution/types';
import { FLOW_NOT_FOUND } from '../../domain/flow/decider';
import { type Action, heldIn, mayInSql } from '../access';

/** A rejected idea as json_build_object writes it (camelCase keys: postgres.js sees only column names). */
const REJECTED_IDEA_JSON = `json_build_object('stepOrder', r.step_order, 'label', r.label, 'content', r.content)`;

/** A rejected idea `r` of the flow not left out by "Clear rejected ideas". */
export const notCleared = (sql: Sql, flowId: string) => sql`
  r.deleted_at > coalesce((SELECT rejected_ideas_cleared_at FROM flows WHERE id = ${flowId}), '-infinity')`;

/** What the next run of a flow is told: the user's notes and every result rejected so far, oldest first. */
export async function readPromptConversation(sql: Sql, flowId: string): Promise<ConversationContext> {
  const [row] = await sql<{ userNotes: string | null; ideas: RejectedIdea[] }[]>`
    SELECT (SELECT c.user_notes FROM ai_conversation_context c WHERE c.flow_id = ${flowId}) AS user_notes,
           coalesce((SELECT json_agg(${sql.unsafe(REJECTED_IDEA_JSON)} ORDER BY r.deleted_at, r.id)
                     FROM rejected_ideas r WHERE r.flow_id = ${flowId} AND ${notCleared(sql, flowId)}),
                    '[]'::json) AS ideas`;
  return { userNotes: row?.userNotes ?? '', rejectedIdeas: rejectedIdeasText(row?.ideas ?? []) };
}

interface ContextRow {
  flowId: string;
  id: string | null;
  userNotes: string | null;
  version: number | null;
  createdAt: Date | null;
  lastUpdated: Date | null;
  ideas: RejectedIdea[];
  turns: ConversationTurn[];
}

/**
 * The conversation context of one of the user's flows, in one round trip. The conversation is built
 * from the successful requests the logs dialog lists (a cleared log starts a new conversation); the
 * rejected ideas from the rejected_ideas read model; only the notes are stored with the context.
 */
export async function readConversationContext(
  sql: Sql,
  flowId: string,
  userId: string,
): Promise<ConversationContextView> {
  const [row] = await sql<ContextRow[]>`
    SELECT f.id AS flow_id, c.id, c.user_notes, c.version, c.created_at,
           greatest(c.last_updated, ideas.last_at, turns.last_at) AS last_updated,
           ideas.list AS ideas, turns.list AS turns
    FROM flows f
    LEFT JOIN ai_conversation_context c ON c.flow_id = f.id
    CROSS JOIN LATERAL (
      SELECT coalesce(json_agg(${sql.unsafe(REJECTED_IDEA_JSON)} ORDER BY r.deleted_at, r.id), '[]'::json) AS list,
             max(r.deleted_at) AS last_at
      FROM rejected_ideas r WHERE r.flow_id = f.id AND ${notCleared(sql, flowId)}
    ) ideas
    CROSS JOIN LATERAL (
      SELECT coalesce(json_agg(json_build_object(
               'stepOrder', l.step_order,
               -- The step's current name; a step deleted since keeps the name its execution knew.
               'stepName', coalesce(s.name, (
                 SELECT snapshot->>'name' FROM executions e, jsonb_array_elements(e.steps) snapshot
                 WHERE e.id = l.execution_id AND snapshot->>'id' = l.step_id::text LIMIT 1)),
               'userInput', l.user_input,
               'answer', l.ai_response) ORDER BY l.requested_at, l.id), '[]'::json) AS list,
             max(l.requested_at) AS last_at
      FROM ai_request_logs l LEFT JOIN steps s ON s.id = l.step_id
      WHERE l.flow_id = f.id AND l.success
        AND (f.logs_cleared_at IS NULL OR l.requested_at > f.logs_cleared_at)
    ) turns
    WHERE f.id = ${flowId} AND ${mayInSql(sql, userId, 'read', 'flow', heldIn('f'))}`;
  if (!row) throw notFound(FLOW_NOT_FOUND);
  return {
    id: row.id,
    flowId: row.flowId,
    conversationHistory: conversationHistoryText(row.turns),
    rejectedIdeas: rejectedIdeasText(row.ideas),
    userNotes: row.userNotes ?? '',
    version: row.version ?? 0,
    lastUpdated: row.lastUpdated?.toISOString() ?? null,
    createdAt: row.createdAt?.toISOString() ?? null,
  };
}

/** A flow's conversation context as its owner reads and changes it (the notes are all they write). */
export class ConversationContexts {
  constructor(
    private readonly sql: Sql,
    private readonly flows: { owned(flowId: string, userId: string, action: Action): Promise<unknown> },
  ) {}

  /** The context of one of the user's flows (404 for any other flow). */
  read(flowId: string, userId: string): Promise<ConversationContextView> {
    return readConversationContext(this.sql, flowId, userId);
  }

  /** Creates the context with the user's notes; 409 when the flow has one already. */
  async create(flowId: string, userId: string, userNotes: string): Promise<ConversationContextView> {
    const created = await this.sql`
      INSERT INTO ai_conversation_context (user_id, flow_id, user_notes)
      SELECT ${userId}, f.id, ${userNotes} FROM flows f
      WHERE f.id = ${flowId} AND ${mayInSql(this.sql, userId, 'change', 'flow', heldIn('f'))}
      ON CONFLICT (flow_id) DO NOTHING
      RETURNING id`;
    if (created.length === 0) {
      await this.flows.owned(flowId, userId, 'change');
      throw conflict('Conversation context đã tồn tại');
    }
    return this.read(flowId, userId);
  }

  /** Changes the notes of the flow's context; 404 when it has none yet. */
  async changeNotes(flowId: string, userId: string, userNotes: string): Promise<ConversationContextView> {
    const updated = await this.sql`
      UPDATE ai_conversation_context c
      SET user_notes = ${userNotes}, version = c.version + 1, last_updated = now()
      FROM flows f
      WHERE c.flow_id = ${flowId} AND f.id = c.flow_id AND ${mayInSql(this.sql, userId, 'change', 'flow', heldIn('f'))}
      RETURNING c.id`;
    if (updated.length === 0) {
      await this.flows.owned(flowId, userId, 'change');
      throw notFound('Không tìm thấy conversation context');
    }
    return this.read(flowId, userId);
  }
}
