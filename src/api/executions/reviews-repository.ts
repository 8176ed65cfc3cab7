import type { Fragment, Sql } from 'postgres';
import { notFound } from '../../domain/errors';
import { REVIEW_MESSAGES } from '../../domain/execution/reviews';
import type { ReviewApproval, ReviewStatus } from '../../domain/execution/types';
import { heldIn, mayInSql, type Role, rolesThatMay } from '../access';
import { type Keyed, keyset, type ListOrder, type Page } from '../http/pages';

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

/**
 * `isNamedByReview` as a condition on a review row `r` (step_reviews) and the user's membership row `m` in
 * its execution's workspace (null columns when they are none): the review asks the user, whatever its status.
 */
export const askedInSql = (sql: Sql, userId: string): Fragment => sql`(
  (r.self_approval OR r.requested_by <> ${userId})
  AND ((r.by = 'members' AND r.user_ids ? ${userId}::text AND m.role IN ${sql(rolesThatMay('review'))})
    OR (r.by = 'role' AND r.role = m.role)
    OR (r.owners_too AND m.role = 'owner')))`;

/**
 * Whether the user approved the review already, and that approval counts (an owner whose approval settles
 * a review too few may decide may give it again): as a condition on `r` and `m`, as for `askedInSql`.
 */
const approvedAlreadyInSql = (sql: Sql, userId: string): Fragment => sql`(
  r.approvals_given @> ${sql.json([{ userId }])}
  AND NOT coalesce(r.owners_reason = 'too-few-deciders' AND m.role = 'owner', false))`;

/** `waitsFor` as a condition on `r` and `m`, as for `askedInSql`: the review waits for the user's decision. */
export const waitsForInSql = (sql: Sql, userId: string): Fragment =>
  sql`(r.status = 'pending' AND ${askedInSql(sql, userId)} AND NOT ${approvedAlreadyInSql(sql, userId)})`;

/** The reviews' read model (step_reviews): the inbox, and which execution a review is of. */
export class ReviewsRepository {
  constructor(private readonly sql: Sql) {}

  /** How many reviews wait for a decision, in the whole database (what the metrics show). */
  async pendingCount(): Promise<number> {
    // On the partial index of pending reviews (migration 049).
    const [row] = await this.sql<{ pending: number }[]>`
      SELECT count(*)::int AS pending FROM step_reviews WHERE status = 'pending'`;
    return row?.pending ?? 0;
  }

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
   * The reviews the user may decide: pending, those that wait for them (`waitsForInSql`); done, those that
   * asked them and are decided, or that they approved and that wait for the others now.
   */
  inbox(userId: string, status: 'pending' | 'done', page: Page | null = null): Promise<Keyed<InboxReview>[]> {
    const { sql } = this;
    const rows = keyset(sql, REVIEWS_ORDER, page);
    const inStatus =
      status === 'pending'
        ? waitsForInSql(sql, userId)
        : sql`(${askedInSql(sql, userId)} AND NOT ${waitsForInSql(sql, userId)})`;
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

  /** The workspace's members with their roles and mail addresses. */
  membersWithAddresses(workspaceId: string): Promise<{ userId: string; role: Role; email: string }[]> {
    return this.sql<{ userId: string; role: Role; email: string }[]>`
      SELECT m.user_id, m.role, u.email FROM workspace_members m JOIN users u ON u.id = m.user_id
      WHERE m.workspace_id = ${workspaceId} ORDER BY m.user_id`;
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
