import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { generateWorkflowRecommendations } from '../../ai/workflow-recommendations';
import { BUILTIN_TEMPLATES } from '../../domain/builtin-templates';
import { OUTPUT_MODES } from '../../domain/flow';
import { workflowJsonSchema } from '../../domain/workflow-json';
import { detectWorkflowPatterns } from '../../domain/workflow-patterns';
import {
  COMPLEXITIES,
  PRIORITIES,
  RECOMMENDATION_CATEGORIES,
  RECOMMENDATION_TYPES,
  recommendationFeedbackSchema,
  recommendedStepSchema,
  type TemplateRecord,
} from '../../domain/workflow-recommendations';
import { builtinTemplateRecords } from '../../domain/workflow-templates';
import { userIdOf } from '../auth/plugin';
import { flowAnswer, recordId, storedAt } from '../http/answer-schemas';
import {
  type ListOrder,
  listAnswer,
  listAnswerInMemory,
  pagedOr,
  pageQuery,
  positionOrder,
  timeKey,
} from '../http/pages';
import { idParams, noFieldsBody } from '../http/request-schemas';
import { modelCallRateLimit } from '../model-calls/rate-limit';
import { RECOMMENDATIONS_ORDER } from './recommendations-repository';

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
 * Workflow recommendations grounded in the user's own flows, the patterns detected in them, the
 * templates offered beside them, and what users do with a recommendation (implement it, rate it).
 */
/** The templates: the user's and the public ones (most used first), then the built-in ones, by position. */
const TEMPLATES_ORDER = positionOrder('templates');

/** The user's detected patterns, seen last first (one row per pattern: read whole, paged in memory). */
const PATTERNS_ORDER: ListOrder = {
  list: 'patterns',
  keys: [
    { sql: 'last_seen', order: 'desc', type: 'timestamptz' },
    { sql: 'frequency', order: 'desc', type: 'int' },
    { sql: 'id', order: 'asc', type: 'uuid' },
  ],
};

export const recommendationRoutes: FastifyPluginAsyncZod = async (app) => {
  const recommendations = app.recommendations;

  app.get(
    '/api/recommendations',
    { schema: { querystring: pageQuery, response: { 200: pagedOr(recommendationAnswer) } } },
    async (request) =>
      listAnswer(request.query, RECOMMENDATIONS_ORDER, (page) =>
        recommendations.list(userIdOf(request), page),
      ),
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
        recommendations.flowUsage(userId),
        app.models.forUser(userId),
      ]);
      const patterns = detectWorkflowPatterns(flows);
      const drafts = await generateWorkflowRecommendations(model.provider, {
        flows,
        patterns,
        builtinWorkflows: BUILTIN_TEMPLATES.map((template) => template.workflow),
      });
      const saved = await recommendations.saveGenerated(userId, patterns, drafts);
      return reply.status(201).send({ count: saved.length, recommendations: saved });
    },
  );

  app.get(
    '/api/templates',
    { schema: { querystring: pageQuery, response: { 200: pagedOr(templateAnswer) } } },
    async (request) =>
      listAnswerInMemory(
        request.query,
        TEMPLATES_ORDER,
        [...(await recommendations.templates(userIdOf(request))), ...builtinTemplateRecords()],
        (_template, index) => [index + 1],
      ),
  );

  app.get(
    '/api/patterns',
    { schema: { querystring: pageQuery, response: { 200: pagedOr(patternAnswer) } } },
    async (request) =>
      listAnswerInMemory(
        request.query,
        PATTERNS_ORDER,
        await recommendations.patterns(userIdOf(request)),
        (pattern) => [timeKey(pattern.lastSeen), pattern.frequency, pattern.id],
      ),
  );

  app.post(
    '/api/recommendations/:id/implement',
    { schema: { params: idParams, body: noFieldsBody, response: { 201: implementedAnswer } } },
    async (request, reply) => {
      const { id } = request.params;
      const userId = userIdOf(request);
      const recommendation = await recommendations.owned(id, userId);
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
        recommendations.markImplemented(id),
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
      const userId = userIdOf(request);
      const recommendation = await recommendations.owned(request.params.id, userId);
      return reply
        .status(201)
        .send(await recommendations.recordFeedback(recommendation, userId, request.body));
    },
  );
};
