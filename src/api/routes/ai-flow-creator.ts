import type { FastifyInstance, FastifyRequest } from 'fastify';
import { generateWorkflow, type resolveProvider } from '../../ai';
import { improveDescription } from '../../ai/description-improvement';
import {
  improveRequestSchema,
  proposalRequestSchema,
  workflowDescriptionOf,
} from '../../domain/ai-flow-creator';
import { modelCallRateLimit } from '../model-call-rate-limit';
import { userIdOf } from '../plugins/auth';
import { modelForUser } from '../user-model';

/**
 * The AI flow creator's two model calls: an improved description for the first message, and a workflow
 * proposal from the whole conversation. Saving the proposal is POST /api/ai/create-from-json.
 */
export async function aiFlowCreatorRoutes(
  app: FastifyInstance,
  options: { resolveModel?: typeof resolveProvider | undefined },
) {
  /**
   * The user's own key, else the server's, else the offline model, as for a step run; like generating a
   * workflow it is no step run, so the free step allowance neither counts nor stops it.
   */
  const modelFor = async (request: FastifyRequest) =>
    (await modelForUser(app, userIdOf(request), options.resolveModel)).provider;

  const limit = modelCallRateLimit(app.config.modelCallsPerMinute);

  app.post('/api/ai/flow-creator/improve', limit, async (request) => {
    userIdOf(request);
    const { description } = improveRequestSchema.parse(request.body);
    const provider = await modelFor(request);
    return { improvement: await improveDescription(provider, description.trim()) };
  });

  app.post('/api/ai/flow-creator/proposal', limit, async (request) => {
    userIdOf(request);
    const { conversationHistory } = proposalRequestSchema.parse(request.body);
    const provider = await modelFor(request);
    return { proposal: await generateWorkflow(provider, workflowDescriptionOf(conversationHistory)) };
  });
}
