import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { JSONValue } from 'postgres';
import { z } from 'zod';
import { generateFlowSuggestions } from '../../ai/flow-suggestions';
import type { FlowStructure, SuggestionRecord } from '../../domain/flow-suggestions';
import { noContent, recordId, stepSnapshotAnswer, storedAt } from '../answer-schemas';
import { readFlowReview } from '../flow-review';
import { modelCallRateLimit } from '../model-call-rate-limit';
import { userIdOf } from '../plugins/auth';
import { flowIdParams, noFieldsBody } from '../request-schemas';

/** The row as read: its time is a Date until it is serialised. */
type SuggestionRow = Omit<SuggestionRecord, 'createdAt'> & { createdAt: Date };

const RECORD_COLUMNS =
  's.id, s.flow_id, s.flow_structure, s.suggestions, s.strategic_recommendation, s.created_at';

/** A row of ai_suggestions: the suggestions, and the flow as it was when they were made. */
const suggestionRecord = z.object({
  id: recordId,
  flowId: recordId,
  flowStructure: z.object({
    name: z.string(),
    description: z.string(),
    steps: z.array(stepSnapshotAnswer),
  }),
  suggestions: z.array(z.object({ stepOrder: z.int(), stepName: z.string(), suggestion: z.string() })),
  strategicRecommendation: z.string().nullable(),
  createdAt: storedAt,
});

/**
 * AI suggestions for a flow: a list of the suggestions made so far (newest first), making one now
 * from the flow and its history, and clearing them.
 */
export const suggestionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { sql } = app;

  app.get(
    '/api/flows/:flowId/suggestions',
    { schema: { params: flowIdParams, response: { 200: z.array(suggestionRecord) } } },
    async (request) => {
      const { flowId } = request.params;
      await app.flows.owned(flowId, userIdOf(request));
      return sql<SuggestionRow[]>`
      SELECT ${sql.unsafe(RECORD_COLUMNS)} FROM ai_suggestions s
      WHERE s.flow_id = ${flowId} ORDER BY s.created_at DESC, s.id`;
    },
  );

  app.post(
    '/api/flows/:flowId/suggestions',
    {
      ...modelCallRateLimit(app.config.modelCallsPerMinute),
      schema: { params: flowIdParams, body: noFieldsBody, response: { 201: suggestionRecord } },
    },
    async (request, reply) => {
      const { flowId } = request.params;
      const userId = userIdOf(request);
      const flow = await app.flows.owned(flowId, userId);
      // Not a step run: the free step allowance neither counts nor stops it (the rate limit does).
      const [steps, { provider }] = await Promise.all([
        app.flows.stepSnapshots(flowId, userId),
        app.models.forUser(userId),
      ]);
      const review = await readFlowReview(sql, flow, steps);
      const generated = await generateFlowSuggestions(provider, review);
      const structure: FlowStructure = { name: flow.name, description: flow.description, steps };
      const [record] = await sql<SuggestionRow[]>`
        INSERT INTO ai_suggestions (flow_id, flow_structure, suggestions, strategic_recommendation)
        VALUES (${flowId}, ${sql.json(structure as unknown as JSONValue)},
                ${sql.json(generated.suggestions as unknown as JSONValue)}, ${generated.strategicRecommendation})
        RETURNING id, flow_id, flow_structure, suggestions, strategic_recommendation, created_at`;
      return reply.status(201).send(record!);
    },
  );

  app.delete(
    '/api/flows/:flowId/suggestions',
    { schema: { params: flowIdParams, response: { 204: noContent } } },
    async (request, reply) => {
      const { flowId } = request.params;
      await app.flows.owned(flowId, userIdOf(request));
      await sql`DELETE FROM ai_suggestions WHERE flow_id = ${flowId}`;
      return reply.status(204).send();
    },
  );
};
