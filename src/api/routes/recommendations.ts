import type { FastifyInstance } from 'fastify';
import type { JSONValue, Sql, TransactionSql } from 'postgres';
import type { resolveProvider } from '../../ai';
import { generateWorkflowRecommendations } from '../../ai/workflow-recommendations';
import { BUILTIN_TEMPLATES } from '../../domain/builtin-templates';
import { type DetectedPattern, detectWorkflowPatterns } from '../../domain/workflow-patterns';
import {
  type PatternRecord,
  type RecommendationRecord,
  recommendationFeedbackSchema,
  statusAfterFeedback,
  type TemplateRecord,
} from '../../domain/workflow-recommendations';
import type { WorkflowJson } from '../../domain/workflow-json';
import { builtinTemplateRecords } from '../../domain/workflow-templates';
import { notFound } from '../errors';
import { modelCallRateLimit } from '../model-call-rate-limit';
import { userIdOf } from '../plugins/auth';
import { idParams, noFieldsBody } from '../request-schemas';
import { modelForUser } from '../user-model';
import { readWorkflowHistory } from '../workflow-history';

const RECOMMENDATION_COLUMNS = `id, user_id, recommendation_type, title, description, category, priority, confidence,
  base_flow_id, recommended_steps, benefits, estimated_time_reduction, implementation_complexity, tags, status,
  user_feedback, feedback_count, average_rating::float8 AS average_rating, created_at, updated_at`;

const json = (sql: Sql | TransactionSql, value: unknown) => sql.json(value as JSONValue);

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
 * Workflow recommendations grounded in the user's own flows, the patterns detected in them, the
 * templates offered beside them, and what users do with a recommendation (implement it, rate it).
 */
export async function recommendationRoutes(
  app: FastifyInstance,
  options: { resolveModel?: typeof resolveProvider | undefined },
) {
  const { sql } = app;

  const ownedRecommendation = async (id: string, userId: string) => {
    const [row] = await sql<RecommendationRecord[]>`
      SELECT ${sql.unsafe(RECOMMENDATION_COLUMNS)} FROM workflow_recommendations
      WHERE id = ${id} AND user_id = ${userId}`;
    if (!row) throw notFound('Recommendation not found');
    return row;
  };

  app.get('/api/recommendations', async (request) => {
    const userId = userIdOf(request);
    return sql<RecommendationRecord[]>`
      SELECT ${sql.unsafe(RECOMMENDATION_COLUMNS)} FROM workflow_recommendations WHERE user_id = ${userId}
      ORDER BY array_position(ARRAY['urgent', 'high', 'medium', 'low'], priority), confidence DESC,
               created_at DESC, id`;
  });

  app.post(
    '/api/recommendations/generate',
    modelCallRateLimit(app.config.modelCallsPerMinute),
    async (request, reply) => {
      noFieldsBody.parse(request.body ?? undefined);
      const userId = userIdOf(request);
      const [flows, model] = await Promise.all([
        readWorkflowHistory(sql, userId),
        modelForUser(app, userId, options.resolveModel),
      ]);
      const patterns = detectWorkflowPatterns(flows);
      const drafts = await generateWorkflowRecommendations(model.provider, {
        flows,
        patterns,
        builtinWorkflows: BUILTIN_TEMPLATES.map((template) => template.workflow),
      });
      const recommendations = await sql.begin(async (tx) => {
        await savePatterns(tx, userId, patterns);
        // A new look replaces the recommendations nobody has acted on yet instead of piling up beside them.
        await tx`
          DELETE FROM workflow_recommendations
          WHERE user_id = ${userId} AND status = 'pending' AND feedback_count = 0`;
        const saved: RecommendationRecord[] = [];
        for (const draft of drafts) {
          const [row] = await tx<RecommendationRecord[]>`
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
      return reply.status(201).send({ count: recommendations.length, recommendations });
    },
  );

  app.get('/api/templates', async (request) => {
    const userId = userIdOf(request);
    const rows = await sql<TemplateRecord[]>`
      SELECT id, name, description, category, difficulty, estimated_duration, template_steps, tags, usage_count,
             average_rating::float8 AS average_rating, is_public, created_by, false AS builtin
      FROM workflow_templates WHERE is_public OR created_by = ${userId}
      ORDER BY usage_count DESC, created_at, id`;
    return [...rows, ...builtinTemplateRecords()];
  });

  app.get('/api/patterns', async (request) => {
    const userId = userIdOf(request);
    return sql<PatternRecord[]>`
      SELECT id, user_id, pattern_type, pattern_data, frequency, last_seen, created_at
      FROM user_workflow_patterns WHERE user_id = ${userId} ORDER BY last_seen DESC, frequency DESC, id`;
  });

  app.post('/api/recommendations/:id/implement', async (request, reply) => {
    const { id } = idParams.parse(request.params);
    noFieldsBody.parse(request.body ?? undefined);
    const userId = userIdOf(request);
    const recommendation = await ownedRecommendation(id, userId);
    // A recommended step is single or multiple, reads no earlier step and needs no input of its own.
    const workflow: WorkflowJson = {
      name: recommendation.title,
      description: recommendation.description,
      steps: recommendation.recommendedSteps.map((step) => ({
        name: step.name,
        order: step.order,
        systemPrompt: step.systemPrompt,
        outputMode: step.outputMode,
        requiresUserInput: false,
        inputSources: [],
        choices: [],
        maxLoopIterations: 1,
      })),
    };
    const flow = await sql.begin(async (tx) => {
      const created = await app.flows.createWithSteps(userId, workflow, tx);
      await tx`
        UPDATE workflow_recommendations SET status = 'implemented', updated_at = now() WHERE id = ${id}`;
      return created;
    });
    return reply.status(201).send(flow);
  });

  app.post('/api/recommendations/:id/feedback', async (request, reply) => {
    const { id } = idParams.parse(request.params);
    const input = recommendationFeedbackSchema.parse(request.body);
    const userId = userIdOf(request);
    const recommendation = await ownedRecommendation(id, userId);
    const updated = await sql.begin(async (tx) => {
      await tx`
        INSERT INTO recommendation_feedback (recommendation_id, user_id, action, feedback, rating)
        VALUES (${id}, ${userId}, ${input.action}, ${input.feedback || null}, ${input.rating})`;
      const [row] = await tx<RecommendationRecord[]>`
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
    return reply.status(201).send(updated);
  });
}
