import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { generateWorkflow } from '../../ai';
import { improveDescription } from '../../ai/description-improvement';
import {
  improveRequestSchema,
  proposalRequestSchema,
  workflowDescriptionOf,
} from '../../domain/ai-flow-creator';
import { generatedWorkflowSchema } from '../../domain/workflow-json';
import { userIdOf } from '../auth/plugin';
import { modelCallRateLimit } from '../model-calls/rate-limit';

/**
 * The AI flow creator's two model calls: an improved description for the first message, and a workflow
 * proposal from the whole conversation. Saving the proposal is POST /api/ai/create-from-json.
 */
export const aiFlowCreatorRoutes: FastifyPluginAsyncZod = async (app) => {
  /**
   * The user's own key, else the server's, else the offline model, as for a step run; like generating a
   * workflow it is no step run, so the free step allowance neither counts nor stops it.
   */
  const modelFor = async (request: FastifyRequest) => (await app.models.forUser(userIdOf(request))).provider;

  const limit = modelCallRateLimit(app.config.modelCallsPerMinute);

  app.post(
    '/api/ai/flow-creator/improve',
    {
      ...limit,
      schema: { body: improveRequestSchema, response: { 200: z.object({ improvement: z.string() }) } },
    },
    async (request) => {
      const provider = await modelFor(request);
      return { improvement: await improveDescription(provider, request.body.description.trim()) };
    },
  );

  app.post(
    '/api/ai/flow-creator/proposal',
    {
      ...limit,
      schema: {
        body: proposalRequestSchema,
        response: { 200: z.object({ proposal: generatedWorkflowSchema }) },
      },
    },
    async (request) => {
      const provider = await modelFor(request);
      const description = workflowDescriptionOf(request.body.conversationHistory);
      return { proposal: await generateWorkflow(provider, description) };
    },
  );
};
