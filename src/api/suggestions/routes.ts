import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { generateFlowSuggestions } from '../../ai/flow-suggestions';
import type { FlowStructure } from '../../domain/flow-suggestions';
import { userIdOf } from '../auth/plugin';
import { noContent, recordId, stepSnapshotAnswer, storedAt } from '../http/answer-schemas';
import { listAnswer, pagedOr, pageQuery } from '../http/pages';
import { flowIdParams, noFieldsBody } from '../http/request-schemas';
import { modelCallRateLimit } from '../model-calls/rate-limit';
import { SUGGESTIONS_ORDER } from './suggestions-repository';

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
  const { suggestions } = app;

  app.get(
    '/api/flows/:flowId/suggestions',
    {
      schema: { params: flowIdParams, querystring: pageQuery, response: { 200: pagedOr(suggestionRecord) } },
    },
    async (request) => {
      const { flowId } = request.params;
      await app.flows.owned(flowId, userIdOf(request));
      return listAnswer(request.query, SUGGESTIONS_ORDER, (page) => suggestions.listed(flowId, page));
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
      const flow = await app.flows.owned(flowId, userId, 'change');
      // Not a step run: the free step allowance neither counts nor stops it (the rate limit does).
      const [steps, { provider }] = await Promise.all([
        app.flows.stepSnapshots(flowId, userId),
        app.models.forUser(userId),
      ]);
      const review = await suggestions.review(flow, steps);
      const generated = await generateFlowSuggestions(provider, review);
      const structure: FlowStructure = { name: flow.name, description: flow.description, steps };
      return reply.status(201).send(await suggestions.save(flowId, structure, generated));
    },
  );

  app.delete(
    '/api/flows/:flowId/suggestions',
    { schema: { params: flowIdParams, response: { 204: noContent } } },
    async (request, reply) => {
      const { flowId } = request.params;
      await app.flows.owned(flowId, userIdOf(request), 'change');
      await suggestions.clear(flowId);
      return reply.status(204).send();
    },
  );
};
