import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { JSONValue, Sql, TransactionSql } from 'postgres';
import { z } from 'zod';
import type { resolveProvider } from '../../ai';
import { generateWorkflowRecommendations } from '../../ai/workflow-recommendations';
import { BUILTIN_TEMPLATES } from '../../domain/builtin-templates';
import { OUTPUT_MODES } from '../../domain/flow';
import { type DetectedPattern, detectWorkflowPatterns } from '../../domain/workflow-patterns';
import {
  COMPLEXITIES,
  PRIORITIES,
  type PatternRecord,
  RECOMMENDATION_CATEGORIES,
  RECOMMENDATION_TYPES,
  recommendedStepSchema,
  type RecommendationRecord,
  recommendationFeedbackSchema,
  statusAfterFeedback,
  type TemplateRecord,
} from '../../domain/workflow-recommendations';
import { workflowJsonSchema } from '../../domain/workflow-json';
import { builtinTemplateRecords } from '../../domain/workflow-templates';
import { flowAnswer, recordId, type Stored, storedAt } from '../answer-schemas';
import { notFound } from '../../domain/errors';
import { modelCallRateLimit } from '../model-call-rate-limit';
import { userIdOf } from '../plugins/auth';
import { idParams, noFieldsBody } from '../request-schemas';
import { modelForUser } from '../user-model';
import { readWorkflowHistory } from '../workflow-history';

const RECOMMENDATION_COLUMNS = `id, user_id, recommendation_type, title, description, category, priority, confidence,
  base_flow_id, recommended_steps, benefits, estimated_time_reduction, implementation_complexity, tags, status,
  user_feedback, feedback_count, average_rating::float8 AS average_rating, created_at, updated_at`;

const json = (sql: Sql | TransactionSql, value: unknown) => sql.json(value as JSONValue);

type RecommendationRow = Stored<RecommendationRecord, 'createdAt' | 'updatedAt'>;

const recommendationAnswer = z.object({
  id: recordId,
  userId: recordId,
  recommendationType: z.enum(RECOMMENDATION_TYPES),
  title: z.string(),
  description: z.string(),
  category: z.enum(RECOMMENDATION_CATEGORIES),
  priority: z.enum(PRIORITIES),
  confidence: z.int(),
  baseFlowId: recordId.nullable(),
  // Stored before steps kept their configuration: the defaults fill in what such a step lacks.
  recommendedSteps: z.array(recommendedStepSchema),
  benefits: z.array(z.string()),
  /** Minutes saved per run. */
  estimatedTimeReduction: z.int().nullable(),
  implementationComplexity: z.enum(COMPLEXITIES),
  tags: z.array(z.string()),
  status: z.string(),
  userFeedback: z.string().nullable(),
  feedbackCount: z.int(),
  averageRating: z.number().nullable(),
  createdAt: storedAt,
  updatedAt: storedAt,
});

/** A workflow_templates row, or one of the built-in workflows (`id: builtin:<id>`). */
const templateAnswer = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  category: z.string(),
  difficulty: z.string(),
  estimatedDuration: z.int().nullable(),
  templateSteps: z.array(z.unknown()),
  tags: z.array(z.string()),
  usageCount: z.int(),
  averageRating: z.number(),
  isPublic: z.boolean(),
  createdBy: recordId.nullable(),
  builtin: z.boolean(),
}) satisfies z.ZodType<TemplateRecord>;

const patternAnswer = z.object({
  id: recordId,
  userId: recordId,
  patternType: z.string(),
  patternData: z.looseObject({ key: z.string() }),
  frequency: z.int(),
  lastSeen: storedAt,
  createdAt: storedAt,
});

/** The flow a recommendation became, with the steps it was given. */
const implementedAnswer = flowAnswer.extend({
  steps: z.array(
    z.object({
      id: recordId,
      order: z.int(),
      name: z.string(),
      systemPrompt: z.string(),
      outputMode: z.enum(OUTPUT_MODES),
    }),
  ),
});

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
export const recommendationRoutes: FastifyPluginAsyncZod<{
  resolveModel?: typeof resolveProvider | undefined;
}> = async (app, options) => {
  const { sql } = app;

  const ownedRecommendation = async (id: string, userId: string) => {
    const [row] = await sql<RecommendationRow[]>`
      SELECT ${sql.unsafe(RECOMMENDATION_COLUMNS)} FROM workflow_recommendations
      WHERE id = ${id} AND user_id = ${userId}`;
    if (!row) throw notFound('Recommendation not found');
    return row;
  };

  app.get(
    '/api/recommendations',
    { schema: { response: { 200: z.array(recommendationAnswer) } } },
    async (request) => {
      const userId = userIdOf(request);
      return sql<RecommendationRow[]>`
      SELECT ${sql.unsafe(RECOMMENDATION_COLUMNS)} FROM workflow_recommendations WHERE user_id = ${userId}
      ORDER BY array_position(ARRAY['urgent', 'high', 'medium', 'low'], priority), confidence DESC,
               created_at DESC, id`;
    },
  );

  app.post(
    '/api/recommendations/generate',
    {
      ...modelCallRateLimit(app.config.modelCallsPerMinute),
      schema: {
        body: noFieldsBody,
        response: { 201: z.object({ count: z.int(), recommendations: z.array(recommendationAnswer) }) },
      },
    },
    async (request, reply) => {
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
        const saved: RecommendationRow[] = [];
        for (const draft of drafts) {
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
      return reply.status(201).send({ count: recommendations.length, recommendations });
    },
  );

  app.get('/api/templates', { schema: { response: { 200: z.array(templateAnswer) } } }, async (request) => {
    const userId = userIdOf(request);
    const rows = await sql<TemplateRecord[]>`
      SELECT id, name, description, category, difficulty, estimated_duration, template_steps, tags, usage_count,
             average_rating::float8 AS average_rating, is_public, created_by, false AS builtin
      FROM workflow_templates WHERE is_public OR created_by = ${userId}
      ORDER BY usage_count DESC, created_at, id`;
    return [...rows, ...builtinTemplateRecords()];
  });

  app.get('/api/patterns', { schema: { response: { 200: z.array(patternAnswer) } } }, async (request) => {
    const userId = userIdOf(request);
    return sql<Stored<PatternRecord, 'lastSeen' | 'createdAt'>[]>`
      SELECT id, user_id, pattern_type, pattern_data, frequency, last_seen, created_at
      FROM user_workflow_patterns WHERE user_id = ${userId} ORDER BY last_seen DESC, frequency DESC, id`;
  });

  app.post(
    '/api/recommendations/:id/implement',
    { schema: { params: idParams, body: noFieldsBody, response: { 201: implementedAnswer } } },
    async (request, reply) => {
      const { id } = request.params;
      const userId = userIdOf(request);
      const recommendation = await ownedRecommendation(id, userId);
      // The steps as the recommendation shows them, configuration and all; one stored before steps kept
      // it, or that breaks a rule of Workflow JSON, gets the defaults or a 400, never a half-made flow.
      const workflow = workflowJsonSchema.parse({
        name: recommendation.title,
        description: recommendation.description,
        steps: recommendation.recommendedSteps.map(({ reasoning: _reasoning, ...step }) => step),
      });
      const flow = await app.flowCommands.createWithSteps(
        userId,
        workflow,
        'recommendation',
        (tx) => tx`
          UPDATE workflow_recommendations SET status = 'implemented', updated_at = now() WHERE id = ${id}`,
      );
      return reply.status(201).send(flow);
    },
  );

  app.post(
    '/api/recommendations/:id/feedback',
    {
      schema: {
        params: idParams,
        body: recommendationFeedbackSchema,
        response: { 201: recommendationAnswer },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const input = request.body;
      const userId = userIdOf(request);
      const recommendation = await ownedRecommendation(id, userId);
      const updated = await sql.begin(async (tx) => {
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
      return reply.status(201).send(updated);
    },
  );
};
