import type { JSONValue, Sql, TransactionSql } from 'postgres';
import { notFound } from '../../domain/errors';
import type { DetectedPattern } from '../../domain/workflow-patterns';
import {
  type PatternRecord,
  type RecommendationDraft,
  type RecommendationFeedbackInput,
  type RecommendationRecord,
  statusAfterFeedback,
  type TemplateRecord,
  withoutRepeats,
} from '../../domain/workflow-recommendations';
import type { Statement } from '../../eventstore';
import { mayInSql } from '../access';
import type { Stored } from '../http/answer-schemas';
import { type Keyed, keyset, type ListOrder, type Page } from '../http/pages';
import { readFlowUsage } from './flow-usage';

const RECOMMENDATION_COLUMNS = `id, user_id, recommendation_type, title, description, category, priority, confidence,
  base_flow_id, recommended_steps, benefits, estimated_time_reduction, implementation_complexity, tags, status,
  user_feedback, feedback_count, average_rating::float8 AS average_rating, created_at, updated_at`;

const json = (sql: Sql | TransactionSql, value: unknown) => sql.json(value as JSONValue);

/** The user's recommendations, the most urgent and confident first, then the newest. */
export const RECOMMENDATIONS_ORDER: ListOrder = {
  list: 'recommendations',
  keys: [
    { sql: "array_position(ARRAY['urgent', 'high', 'medium', 'low'], priority)", order: 'asc', type: 'int' },
    { sql: 'confidence', order: 'desc', type: 'int' },
    { sql: 'created_at', order: 'desc', type: 'timestamptz' },
    { sql: 'id', order: 'asc', type: 'uuid' },
  ],
};

export type RecommendationRow = Stored<RecommendationRecord, 'createdAt' | 'updatedAt'>;

/**
 * A pattern seen before (same user, same key) is counted again and its data refreshed; a new one is
 * stored. One statement per pattern, in one transaction with the recommendations made from them.
 */
async function savePatterns(sql: TransactionSql, userId: string, patterns: DetectedPattern[]) {
  for (const pattern of patterns) {
    const data = json(sql, { key: pattern.key, ...pattern.data });
    const [updated] = await sql`
      UPDATE user_workflow_patterns SET frequency = frequency + 1, last_seen = now(), pattern_data = ${data}
      WHERE user_id = ${userId} AND pattern_type = ${pattern.type} AND pattern_data->>'key' = ${pattern.key}
      RETURNING id`;
    if (!updated) {
      await sql`
        INSERT INTO user_workflow_patterns (user_id, pattern_type, pattern_data)
        VALUES (${userId}, ${pattern.type}, ${data})`;
    }
  }
}

/**
 * Workflow recommendations, the patterns detected in a user's flows, the templates offered beside them, and
 * the feedback on each recommendation: each user's own (another user's id reads as missing).
 */
export class RecommendationsRepository {
  constructor(private readonly sql: Sql) {}

  /** The user's flows as recommendations are grounded in them. */
  flowUsage(userId: string) {
    return readFlowUsage(this.sql, userId);
  }

  /** The user's recommendations, the most urgent and confident first. */
  list(userId: string, page: Page | null = null): Promise<Keyed<RecommendationRow>[]> {
    const { sql } = this;
    const rows = keyset(sql, RECOMMENDATIONS_ORDER, page);
    return sql<Keyed<RecommendationRow>[]>`
      SELECT ${sql.unsafe(RECOMMENDATION_COLUMNS)}, ${rows.pageKey} FROM workflow_recommendations
      WHERE ${mayInSql(sql, userId, 'read', 'personal', 'user_id')} AND ${rows.after}
      ${rows.orderBy} ${rows.limit}`;
  }

  /** One of the user's recommendations; 404 for any other id. */
  async owned(id: string, userId: string): Promise<RecommendationRow> {
    const { sql } = this;
    const [row] = await sql<RecommendationRow[]>`
      SELECT ${sql.unsafe(RECOMMENDATION_COLUMNS)} FROM workflow_recommendations
      WHERE id = ${id} AND ${mayInSql(sql, userId, 'read', 'personal', 'user_id')}`;
    if (!row) throw notFound('Không tìm thấy recommendation');
    return row;
  }

  /**
   * Stores a new look at the user's flows in one transaction: the patterns seen, and the recommendations
   * made from them, which replace the ones nobody has acted on yet instead of piling up beside them; one the
   * user acted on stays, and the same recommendation made again is not listed beside it.
   */
  saveGenerated(
    userId: string,
    patterns: DetectedPattern[],
    drafts: RecommendationDraft[],
  ): Promise<RecommendationRow[]> {
    return this.sql.begin(async (tx) => {
      await savePatterns(tx, userId, patterns);
      await tx`
        DELETE FROM workflow_recommendations
        WHERE user_id = ${userId} AND status = 'pending' AND feedback_count = 0`;
      const kept = await tx<{ baseFlowId: string | null; title: string }[]>`
        SELECT base_flow_id, title FROM workflow_recommendations WHERE user_id = ${userId}`;
      const saved: RecommendationRow[] = [];
      for (const draft of withoutRepeats(drafts, kept)) {
        const [row] = await tx<RecommendationRow[]>`
          INSERT INTO workflow_recommendations (user_id, recommendation_type, title, description, category,
            priority, confidence, base_flow_id, recommended_steps, benefits, estimated_time_reduction,
            implementation_complexity, tags)
          VALUES (${userId}, ${draft.recommendationType}, ${draft.title}, ${draft.description},
            ${draft.category}, ${draft.priority}, ${draft.confidence}, ${draft.baseFlowId},
            ${json(tx, draft.recommendedSteps)}, ${json(tx, draft.benefits)}, ${draft.estimatedTimeReduction},
            ${draft.implementationComplexity}, ${json(tx, draft.tags)})
          RETURNING ${tx.unsafe(RECOMMENDATION_COLUMNS)}`;
        saved.push(row!);
      }
      return saved;
    });
  }

  /** The statement that marks a recommendation implemented, run with the flow made from it. */
  markImplemented(id: string): (tx: TransactionSql) => Statement {
    return (tx) => tx`
      UPDATE workflow_recommendations SET status = 'implemented', updated_at = now() WHERE id = ${id}`;
  }

  /** Records the user's feedback and answers the recommendation with its status, count and rating after it. */
  recordFeedback(
    recommendation: RecommendationRow,
    userId: string,
    input: RecommendationFeedbackInput,
  ): Promise<RecommendationRow> {
    const { id } = recommendation;
    return this.sql.begin(async (tx) => {
      await tx`
        INSERT INTO recommendation_feedback (recommendation_id, user_id, action, feedback, rating)
        VALUES (${id}, ${userId}, ${input.action}, ${input.feedback || null}, ${input.rating})`;
      const [row] = await tx<RecommendationRow[]>`
        UPDATE workflow_recommendations SET
          status = ${statusAfterFeedback(recommendation.status, input.action)},
          user_feedback = coalesce(${input.feedback || null}, user_feedback),
          feedback_count = (SELECT count(*) FROM recommendation_feedback WHERE recommendation_id = ${id}),
          average_rating = (SELECT avg(rating) FROM recommendation_feedback WHERE recommendation_id = ${id}),
          updated_at = now()
        WHERE id = ${id}
        RETURNING ${tx.unsafe(RECOMMENDATION_COLUMNS)}`;
      return row!;
    });
  }

  /** The stored templates the user may see: public ones and their own. */
  templates(userId: string): Promise<TemplateRecord[]> {
    return this.sql<TemplateRecord[]>`
      SELECT id, name, description, category, difficulty, estimated_duration, template_steps, tags, usage_count,
             average_rating::float8 AS average_rating, is_public, created_by, false AS builtin
      FROM workflow_templates WHERE is_public OR created_by = ${userId}
      ORDER BY usage_count DESC, created_at, id`;
  }

  /** The patterns detected in the user's flows, the most recently seen first. */
  patterns(userId: string): Promise<Stored<PatternRecord, 'lastSeen' | 'createdAt'>[]> {
    return this.sql<Stored<PatternRecord, 'lastSeen' | 'createdAt'>[]>`
      SELECT id, user_id, pattern_type, pattern_data, frequency, last_seen, created_at
      FROM user_workflow_patterns WHERE user_id = ${userId} ORDER BY last_seen DESC, frequency DESC, id`;
  }
}
