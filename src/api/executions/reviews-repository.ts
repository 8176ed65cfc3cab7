import type { Sql } from 'postgres';
import { notFound } from '../../domain/errors';
import { REVIEW_MESSAGES } from '../../domain/execution/reviews';
import type { ReviewApproval, ReviewStatus } from '../../domain/execution/types';
import { heldIn, mayInSql, type Role } from '../access';
import { type Keyed, keyset, type ListOrder, type Page } from '../pages';

/** A review in the inbox of the people who may decide it. */
export interface InboxReview {
  id: string;
  executionId: string;
  flowId: string;
  stepId: string;
  flowName: string;
  stepName: string;
  requestedBy: { userId: string; name: string };
  requestedAt: Date;
  dueAt: Date | null;
  approvalsNeeded: number;
  approvalsGiven: ReviewApproval[];
  status: ReviewStatus;
}

/** The inbox's order: newest request first (the id orders requests of the same microsecond). */
export const REVIEWS_ORDER: ListOrder = {
  list: 'reviews',
  keys: [
    { sql: 'r.requested_at', order: 'desc', type: 'timestamptz' },
    { sql: 'r.id', order: 'desc', type: 'uuid' },
  ],
};

/** The reviews' read model (step_reviews): the inbox, and which execution a review is of. */
export class ReviewsRepository {
  constructor(private readonly sql: Sql) {}

  /** The execution the review is of, when the user may read it; otherwise 404. */
  async executionOf(reviewId: string, userId: string): Promise<string> {
    const { sql } = this;
    const [row] = await sql<{ executionId: string }[]>`
      SELECT r.execution_id FROM step_reviews r JOIN executions e ON e.id = r.execution_id
      WHERE r.id = ${reviewId} AND ${mayInSql(sql, userId, 'read', 'execution', heldIn('e'))}`;
    if (!row) throw notFound(REVIEW_MESSAGES.reviewNotFound);
    return row.executionId;
  }

  /**
   * The reviews the user may decide, pending or done (decided, or approved by them and waiting for others):
   * those naming them, or asking for their role in the execution's workspace (where their role may review), or
   * gone to the owners when they are one, never their own request when it forbids self-approval. The same
   * rule as the decider's (requireNamedByReview), as a query.
   */
  inbox(userId: string, status: 'pending' | 'done', page: Page | null = null): Promise<Keyed<InboxReview>[]> {
    const { sql } = this;
    const rows = keyset(sql, REVIEWS_ORDER, page);
    // A review still pending that this user has approved waits for the others now, not for them: done;
    // unless it went to the owners because too few may decide it and they are one: their approval settles it.
    const approvedByUser = sql`(r.approvals_given @> ${sql.json([{ userId }])}
      AND NOT coalesce(r.owners_reason = 'too-few-deciders' AND m.role = 'owner', false))`;
    const inStatus =
      status === 'pending'
        ? sql`(r.status = 'pending' AND NOT ${approvedByUser})`
        : sql`(r.status <> 'pending' OR ${approvedByUser})`;
    return sql<Keyed<InboxReview>[]>`
      SELECT r.id, r.execution_id, r.flow_id, r.step_id, coalesce(f.name, '') AS flow_name, r.step_name,
             json_build_object('userId', r.requested_by,
               'name', coalesce(trim(concat_ws(' ', u.first_name, u.last_name)), '')) AS requested_by,
             r.requested_at, r.due_at, r.approvals_needed, r.approvals_given, r.status, ${rows.pageKey}
      FROM step_reviews r
      JOIN executions e ON e.id = r.execution_id
      LEFT JOIN flows f ON f.id = r.flow_id
      LEFT JOIN users u ON u.id = r.requested_by
      LEFT JOIN workspace_members m ON m.workspace_id = e.workspace_id AND m.user_id = ${userId}
      WHERE ${inStatus}
        AND ${mayInSql(sql, userId, 'review', 'execution', heldIn('e'))}
        AND (r.self_approval OR r.requested_by <> ${userId})
        AND ((r.by = 'members' AND r.user_ids ? ${userId}::text)
          OR (r.by = 'role' AND r.role = m.role)
          OR (r.owners_too AND m.role = 'owner'))
        AND ${rows.after}
      ${rows.orderBy} ${rows.limit}`;
  }

  /** What a review's mails show of it: its flow, step and who asked; undefined when there is no such review. */
  async noticeOf(reviewId: string): Promise<ReviewNotice | undefined> {
    const [row] = await this.sql<ReviewNotice[]>`
      SELECT r.flow_id, coalesce(f.name, '') AS flow_name, r.step_name, r.workspace_id,
             coalesce(nullif(trim(concat_ws(' ', u.first_name, u.last_name)), ''), u.email, '') AS requested_by_name
      FROM step_reviews r LEFT JOIN flows f ON f.id = r.flow_id LEFT JOIN users u ON u.id = r.requested_by
      WHERE r.id = ${reviewId}`;
    return row;
  }

  /** The workspace's members among `userIds` or holding `role`, with their mail addresses. */
  async membersToTell(
    workspaceId: string,
    who: { userIds: string[]; role: string | null },
  ): Promise<{ userId: string; email: string }[]> {
    return this.sql<{ userId: string; email: string }[]>`
      SELECT m.user_id, u.email FROM workspace_members m JOIN users u ON u.id = m.user_id
      WHERE m.workspace_id = ${workspaceId}
        AND (m.user_id = ANY(${who.userIds}::uuid[]) OR m.role = ${who.role})
      ORDER BY m.user_id`;
  }

  /** The members of the execution's workspace, with their roles; none when it is in no workspace. */
  membersOfExecution(executionId: string): Promise<{ userId: string; role: Role }[]> {
    return this.sql<{ userId: string; role: Role }[]>`
      SELECT m.user_id, m.role FROM executions e JOIN workspace_members m ON m.workspace_id = e.workspace_id
      WHERE e.id = ${executionId} ORDER BY m.user_id`;
  }

  /** The pending reviews of a flow's step, with their executions. */
  pendingOfStep(flowId: string, stepId: string): Promise<{ reviewId: string; executionId: string }[]> {
    return this.sql<{ reviewId: string; executionId: string }[]>`
      SELECT id AS review_id, execution_id FROM step_reviews
      WHERE flow_id = ${flowId} AND step_id = ${stepId} AND status = 'pending' ORDER BY id`;
  }

  /** The executions of the workspace with a review pending. */
  async executionsWithPendingReviews(workspaceId: string): Promise<string[]> {
    const rows = await this.sql<{ executionId: string }[]>`
      SELECT DISTINCT execution_id FROM step_reviews WHERE workspace_id = ${workspaceId} AND status = 'pending'`;
    return rows.map((row) => row.executionId);
  }

  /** The executions with a pending review in the workspace naming `userId` among its people. */
  async executionsNaming(workspaceId: string, userId: string): Promise<string[]> {
    const rows = await this.sql<{ executionId: string }[]>`
      SELECT DISTINCT execution_id FROM step_reviews
      WHERE workspace_id = ${workspaceId} AND status = 'pending' AND by = 'members'
        AND user_ids ? ${userId}::text`;
    return rows.map((row) => row.executionId);
  }
}

/** A review as its mails name it. */
export interface ReviewNotice {
  flowId: string;
  flowName: string;
  stepName: string;
  workspaceId: string | null;
  requestedByName: string;
}
